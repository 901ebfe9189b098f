import { describe, expect, it } from 'vitest';
import { consoleLink, describeAlert, plainText } from '../../../lib/notify/channels/message.ts';
import { sampleAlert } from './alert-fixture.ts';

describe('describeAlert', () => {
  it('names the entity, the check by its name and target, from → to, the last error and the time', () => {
    const message = describeAlert(sampleAlert(), undefined);
    expect(message.title).toBe('Payments API is down');
    expect(message.tone).toBe('down');
    expect(message.note).toBeUndefined();
    expect(message.facts).toEqual([
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
      expect(message.facts.map((f) => f.label)).toEqual(['Check', 'Target', 'State', 'Time']);
    }
    const first = describeAlert(sampleAlert({}, { from_state: 'unknown', to_state: 'up' }), undefined);
    expect(first.title).toBe('Payments API is up');
  });

  it('words a repeat as a reminder and a test as a test', () => {
    const repeat = describeAlert(sampleAlert({ kind: 'repeat' }), undefined);
    expect(repeat.title).toBe('Payments API is still down');
    expect(repeat.note).toBe('Reminder: down since the change below.');
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
