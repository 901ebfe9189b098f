import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Applied,
  applyEvent,
  type OutsideAlertState,
  outsideCheckState,
} from '../../lib/integrations/ingest/alert-lifecycle.ts';
import type { IncomingAlert, Severity } from '../../lib/integrations/kinds/incoming.ts';

/**
 * An outside alert's life: one alert per dedup key, retriggers counted, late events losing, and
 * the outside check's state the worst open alert. The property: whatever the order and repetition
 * in which dated triggers and resolves arrive, the alert ends as the latest-dated event says.
 */

const event = (
  action: IncomingAlert['action'],
  at?: string,
  severity: Severity = 'critical',
): IncomingAlert => ({
  dedup_key: 'k',
  action,
  severity: action === 'trigger' ? severity : undefined,
  summary: `${action} ${at ?? ''}`,
  source: undefined,
  labels: {},
  links: [],
  at,
});

function run(events: IncomingAlert[]): {
  state: OutsideAlertState | undefined;
  changes: Applied['change'][];
} {
  let state: OutsideAlertState | undefined;
  const changes: Applied['change'][] = [];
  events.forEach((e, i) => {
    const applied = applyEvent(state, e, new Date(Date.UTC(2026, 10, 28, 22, 0, i)).toISOString());
    state = applied.next;
    changes.push(applied.change);
  });
  return { state, changes };
}

describe('an outside alert', () => {
  it('opens, retriggers (counted, one alert), is acknowledged, resolves and reopens', () => {
    const { state, changes } = run([
      event('trigger'),
      event('trigger', undefined, 'warning'),
      event('acknowledge'),
      event('trigger'),
      event('resolve'),
      event('resolve'),
      event('trigger'),
    ]);
    expect(changes).toEqual([
      'opened',
      'retriggered',
      'acknowledged',
      'retriggered',
      'resolved',
      'unchanged',
      'reopened',
    ]);
    expect(state).toMatchObject({
      status: 'triggered',
      count: 4,
      resolved_at: null,
      first_at: '2026-11-28T22:00:00.000Z',
    });
  });

  it('keeps an acknowledged alert acknowledged through a retrigger, and ignores what names no alert', () => {
    expect(run([event('trigger'), event('acknowledge'), event('trigger')]).state?.status).toBe(
      'acknowledged',
    );
    expect(run([event('acknowledge')])).toEqual({ state: undefined, changes: ['unknown'] });
    expect(run([event('resolve')])).toEqual({ state: undefined, changes: ['unknown'] });
  });

  it('lets a late event lose: a firing retried after its resolved does not reopen the alert', () => {
    const { state, changes } = run([
      event('trigger', '2026-11-28T21:00:00.000Z'),
      event('resolve', '2026-11-28T21:05:00.000Z'),
      event('trigger', '2026-11-28T21:00:00.000Z'),
    ]);
    expect(changes).toEqual(['opened', 'resolved', 'late']);
    expect(state?.status).toBe('resolved');
    // A resolve that arrives before its trigger is kept, and the trigger is late.
    expect(
      run([event('resolve', '2026-11-28T21:05:00.000Z'), event('trigger', '2026-11-28T21:00:00.000Z')]).state
        ?.status,
    ).toBe('resolved');
  });

  it('ends as its latest-dated event says, whatever the order and repetition of delivery (property)', () => {
    const dated = fc
      .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 8 })
      .chain((times) =>
        fc.tuple(
          fc.constant(times),
          fc.array(fc.constantFrom<'trigger' | 'resolve'>('trigger', 'resolve'), {
            minLength: times.length,
            maxLength: times.length,
          }),
        ),
      )
      .map(([times, actions]) =>
        times.map((t, i) =>
          event(actions[i] ?? 'trigger', new Date(Date.UTC(2026, 10, 28, 20, 0, 0, t)).toISOString()),
        ),
      );
    fc.assert(
      fc.property(
        dated.chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.shuffledSubarray([...events, ...events], { minLength: events.length }),
          ),
        ),
        ([events, delivered]) => {
          // Every event is delivered at least once: the subarray plus the events it left out.
          const all = [...delivered, ...events.filter((e) => !delivered.includes(e))];
          const latest = [...events].sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? 1 : -1))[0];
          const { state } = run(all);
          if (!all.some((e) => e.action === 'trigger')) return;
          expect(state?.status).toBe(latest?.action === 'trigger' ? 'triggered' : 'resolved');
        },
      ),
    );
  });
});

describe("the outside check's state", () => {
  const open = (severity: Severity, status: OutsideAlertState['status'] = 'triggered') => ({
    severity,
    status,
  });
  it('is the worst open alert: critical or error down, warning degraded, info no state, none open up', () => {
    expect(outsideCheckState([])).toBe('up');
    expect(outsideCheckState([open('critical', 'resolved'), open('info', 'resolved')])).toBe('up');
    expect(outsideCheckState([open('info')])).toBeNull();
    expect(outsideCheckState([open('info'), open('warning')])).toBe('degraded');
    expect(outsideCheckState([open('warning'), open('error', 'acknowledged')])).toBe('down');
    expect(outsideCheckState([open('critical')])).toBe('down');
  });
});
