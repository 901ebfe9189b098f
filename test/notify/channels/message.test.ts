import { describe, expect, it } from 'vitest';
import { consoleLink, describeAlert, plainText } from '../../../lib/notify/channels/message.ts';
import { humanDuration, payloadKindOf } from '../../../lib/notify/payload-kind.ts';
import type { Holding } from '../../../lib/notify/ports.ts';
import { sampleAlert } from './alert-fixture.ts';

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
