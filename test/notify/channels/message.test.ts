import { describe, expect, it } from 'vitest';
import { describeDigest } from '../../../lib/notify/channels/digest-message.ts';
import { clip, consoleLink, describeAlert, plainText } from '../../../lib/notify/channels/message.ts';
import { humanDuration, payloadKindOf } from '../../../lib/notify/items/payload-kind.ts';
import type { Holding } from '../../../lib/notify/items/ports.ts';
import { smsAlertText } from '../../../lib/providers/sms-text.ts';
import { sampleAlert, sampleEvent } from './alert-fixture.ts';

describe('describeAlert', () => {
  it('names the entity, the check by its name and target, from → to, the last error and the time', () => {
    const message = describeAlert(sampleAlert(), undefined);
    expect(message.title).toBe('Payments API is down');
    expect(message.tone).toBe('down');
    expect(message.note).toBeUndefined();
    expect(message.facts).toEqual([
      { label: 'Kind', value: 'alert' },
      { label: 'Check', value: 'Payments health' },
      { label: 'Target', value: 'GET https://payments.example.com/health' },
      { label: 'State', value: 'up → down' },
      { label: 'Last error', value: 'the endpoint answered 503' },
      { label: 'Time', value: '2026-03-01 12:34:56 UTC' },
    ]);
    expect(message.link).toBeUndefined();
  });

  it('words a recovery as one, out of down or degraded', () => {
    for (const from_state of ['down', 'degraded']) {
      const message = describeAlert(
        sampleAlert({ lastError: null }, { from_state, to_state: 'up' }),
        undefined,
      );
      expect(message.title).toBe('Payments API recovered: it is up again');
      expect(message.tone).toBe('up');
      expect(message.facts.map((f) => f.label)).toEqual(['Kind', 'Check', 'Target', 'State', 'Time']);
      expect(message.facts[0]?.value).toBe('recovery');
    }
    const first = describeAlert(sampleAlert({}, { from_state: 'unknown', to_state: 'up' }), undefined);
    expect(first.title).toBe('Payments API is up');
  });

  it('words a repeat as a reminder and a test as a test', () => {
    const repeat = describeAlert(sampleAlert({ kind: 'repeat' }), undefined);
    expect(repeat.title).toBe('Payments API is still down');
    expect(repeat.note).toBe('Repeat: down since the change below, not resolved yet.');
    const test = describeAlert(sampleAlert({ kind: 'test' }), undefined);
    expect(test.title).toBe('Test: Payments API is down');
    expect(test.note).toBe('This is a test message from Vigil: nothing changed.');
  });

  it('links to the entity in the console when a public URL is set', () => {
    const alert = sampleAlert();
    expect(consoleLink(alert, 'https://vigil.example.com/')).toBe(
      'https://vigil.example.com/entities/service/payments-api',
    );
    expect(plainText(describeAlert(alert, 'https://vigil.example.com'), true)).toBe(
      [
        'Payments API is down',
        'Kind: alert',
        'Check: Payments health',
        'Target: GET https://payments.example.com/health',
        'State: up → down',
        'Last error: the endpoint answered 503',
        'Time: 2026-03-01 12:34:56 UTC',
        'Open in Vigil: https://vigil.example.com/entities/service/payments-api',
      ].join('\n'),
    );
  });

  it('clips a very long error so messages stay within chat limits', () => {
    const message = describeAlert(sampleAlert({ lastError: 'x'.repeat(5000) }), undefined);
    const error = message.facts.find((f) => f.label === 'Last error');
    expect(error?.value).toHaveLength(500);
    expect(error?.value.endsWith('…')).toBe(true);
  });
});

describe('what each message is (issue 35: say what each message is)', () => {
  it('maps a delivery record to its payload kind: an alert out of down or degraded is a recovery', () => {
    expect(payloadKindOf('alert', { from_state: 'up', to_state: 'down' })).toBe('alert');
    expect(payloadKindOf('alert', { from_state: 'down', to_state: 'up' })).toBe('recovery');
    expect(payloadKindOf('alert', { from_state: 'degraded', to_state: 'up' })).toBe('recovery');
    expect(payloadKindOf('alert', { from_state: 'unknown', to_state: 'up' })).toBe('alert');
    expect(payloadKindOf('repeat', { from_state: 'up', to_state: 'down' })).toBe('repeat');
    expect(payloadKindOf('escalation', { from_state: 'up', to_state: 'down' })).toBe('escalation');
    expect(payloadKindOf('test', { from_state: 'up', to_state: 'up' })).toBe('test');
  });

  it('says how long a repeat has been down, in its title and note', () => {
    const repeat = describeAlert(sampleAlert({ kind: 'repeat', downForSeconds: 25 * 60 + 10 }), undefined);
    expect(repeat.title).toBe('Payments API is still down for 25 min');
    expect(repeat.note).toBe('Repeat: down for 25 min, not resolved yet.');
    expect(repeat.facts[0]).toEqual({ label: 'Kind', value: 'repeat' });
  });

  it('says how long an escalation has been unacknowledged', () => {
    const escalation = describeAlert(
      sampleAlert({ kind: 'escalation', unacknowledgedMinutes: 3, unacknowledgedSeconds: 200 }),
      undefined,
    );
    expect(escalation.title).toBe('Escalation: Payments API is down and unacknowledged');
    expect(escalation.note).toBe('Escalated: the incident has been unacknowledged for 3 minutes.');
    expect(escalation.facts[0]).toEqual({ label: 'Kind', value: 'escalation' });
  });

  it('words durations in whole units', () => {
    expect([45, 60, 25 * 60, 2 * 3600, 2 * 3600 + 5 * 60, 3 * 86_400 + 4 * 3600].map(humanDuration)).toEqual([
      '45 s',
      '1 min',
      '25 min',
      '2 h',
      '2 h 5 min',
      '3 d 4 h',
    ]);
  });
});

describe('a root cause names what it holds back (issue 35: inhibition)', () => {
  const dependents = ['Shop API', 'Nightly Backup', 'Search', 'Mailer', 'Reports', 'Billing', 'Export'].map(
    (name, i) => ({ entity_id: `ent_${i}`, name, state: 'down' }),
  );

  it('lists its held dependents, clipped, and the status pages affected', () => {
    const holding: Holding = {
      dependents,
      dependents_total: 9,
      status_pages: [{ slug: 'acme', title: 'Acme Shop' }],
    };
    const message = describeAlert(sampleAlert({ holding }, { entity_name: 'Orders DB' }), undefined);
    expect(message.note).toBe(
      'Payments API is down; holding 9 dependents: Shop API, Nightly Backup, Search, Mailer, Reports, … and 4 more; status pages affected: Acme Shop.',
    );
  });

  it('says on its recovery which dependents are up again (the all-clear)', () => {
    const holding: Holding = {
      dependents: [{ entity_id: 'ent_1', name: 'Shop API', state: 'up' }],
      dependents_total: 1,
      still_down: [{ entity_id: 'ent_2', name: 'Nightly Backup', state: 'down' }],
      status_pages: [],
    };
    const message = describeAlert(
      sampleAlert({ holding, lastError: null }, { from_state: 'down', to_state: 'up' }),
      undefined,
    );
    expect(message.note).toBe(
      'All clear: Payments API is up again; 1 dependent up again: Shop API; still down: Nightly Backup.',
    );
  });
});

describe('every message says why (DECISIONS.md "Alert truth (wave 5)": Reason)', () => {
  const facts = (alert: Parameters<typeof describeAlert>[0]) =>
    describeAlert(alert, undefined).facts.map((f) => `${f.label}: ${f.value}`);

  it('shows a reason that is the last error once, as the last error', () => {
    const lines = facts(sampleAlert({ reason: 'the endpoint answered 503' }));
    expect(lines).toContain('Last error: the endpoint answered 503');
    expect(lines.filter((l) => l.includes('the endpoint answered 503'))).toHaveLength(1);
  });

  it('gives a rule or the checks failing now a Reason line of its own, before the last error', () => {
    const repeat = sampleAlert({
      kind: 'repeat',
      reason: 'Payments health: the endpoint answered 503; Ledger: connect ECONNREFUSED',
    });
    expect(facts(repeat).slice(4, 6)).toEqual([
      'Reason: Payments health: the endpoint answered 503; Ledger: connect ECONNREFUSED',
      'Last error: the endpoint answered 503',
    ]);
    const recovery = sampleAlert({ reason: 'check succeeded' }, { from_state: 'down', to_state: 'up' });
    expect(facts(recovery)).toContain('Reason: check succeeded');
  });

  it('takes a cut reason for the start of the same last error', () => {
    const error = `assertion failed: ${'x'.repeat(400)}`;
    const lines = facts(sampleAlert({ lastError: error, reason: clip(error, 300) }));
    expect(lines.some((l) => l.startsWith('Reason:'))).toBe(false);
  });

  it('puts each digest event’s reason on its line, cut to 160 characters', () => {
    const digest = describeDigest({
      deliveryId: 'dlv_01JDIGEST',
      group: { by: 'entity', key: 'ent_1', name: 'Payments API' },
      counts: { down: 2, degraded: 0, up: 0 },
      events: [
        { event: sampleEvent(), kind: 'alert', reason: 'the endpoint answered 503' },
        { event: sampleEvent(), kind: 'alert', reason: `timeout ${'y'.repeat(300)}` },
        { event: sampleEvent(), kind: 'alert' },
      ],
      part: 1,
      parts: 1,
    });
    expect(digest.lines[0]).toBe(
      'Payments API: up → down (2026-03-01 12:34:56 UTC): the endpoint answered 503',
    );
    expect(digest.lines[1]).toMatch(/: timeout y+…$/);
    expect(digest.lines[1]?.split('): ')[1]).toHaveLength(160);
    expect(digest.lines[2]).toBe('Payments API: up → down (2026-03-01 12:34:56 UTC)');
  });

  it('puts the reason in an SMS before the link and the other facts', () => {
    const text = smsAlertText(
      describeAlert(sampleAlert({ kind: 'repeat', reason: 'Ledger: timeout' }), undefined),
    );
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Vigil: Payments API is still down',
      'Repeat: down since the change below, not resolved yet.',
      'Reason: Ledger: timeout',
      'Last error: the endpoint answered 503',
    ]);
  });
});
