import { describe, expect, it } from 'vitest';
import type { Layer, Rota } from '../../lib/domain/schedules.ts';
import { rotaSchema } from '../../lib/domain/schedules.ts';
import { finalShifts, onCallAt } from '../../lib/oncall/final-schedule.ts';
import { layerShifts } from '../../lib/oncall/layer-shifts.ts';

/**
 * The final schedule on named examples: wall-clock handoffs across both DST changes of
 * Europe/Berlin and America/New_York and in a zone without DST, handoffs inside a gap and an
 * overlap, restrictions (past midnight too), layers and overrides. The properties over generated
 * rotas are in final-schedule-model.test.ts.
 */

const ms = (iso: string) => Date.parse(iso);
const iso = (n: number) => new Date(n).toISOString();

function layer(partial: Partial<Layer> & Pick<Layer, 'rotation'>): Layer {
  return { id: 'l1', name: 'Primary', members: ['ann', 'bob'], ...partial };
}

function rota(zone: string, layers: Layer[], overrides: Rota['overrides'] = []): Rota {
  return rotaSchema.parse({ time_zone: zone, layers, overrides });
}

/** The shifts as [user, start, end] in ISO, for readable expectations. */
function table(r: Rota, from: string, to: string): [string, string, string][] {
  return finalShifts(r, ms(from), ms(to)).map((s) => [s.user_id, iso(s.start), iso(s.end)]);
}

describe('a daily rotation in Europe/Berlin', () => {
  const berlin = rota('Europe/Berlin', [
    layer({ rotation: { type: 'daily', handoff: '09:00', start: '2026-03-27' } }),
  ]);

  it('hands over at 09:00 local on both sides of the spring change: the short night is 23 hours', () => {
    expect(table(berlin, '2026-03-27T08:00:00Z', '2026-03-30T07:00:00Z')).toEqual([
      ['ann', '2026-03-27T08:00:00.000Z', '2026-03-28T08:00:00.000Z'],
      ['bob', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'],
      ['ann', '2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z'],
    ]);
  });

  it('hands over at 09:00 local on both sides of the autumn change: that shift is 25 hours', () => {
    const shifts = finalShifts(berlin, ms('2026-10-24T07:00:00Z'), ms('2026-10-26T08:00:00Z'));
    expect(shifts.map((s) => [iso(s.start), iso(s.end)])).toEqual([
      ['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z'],
      ['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z'],
    ]);
    expect((shifts[0]?.end ?? 0) - (shifts[0]?.start ?? 0)).toBe(25 * 3_600_000);
  });

  it('has nobody before the first handoff', () => {
    expect(onCallAt(berlin, ms('2026-03-27T07:59:00Z'))).toEqual({
      user_id: null,
      source: null,
      until: ms('2026-03-27T08:00:00Z'),
    });
  });
});

describe('a 12-hour custom rotation in America/New_York', () => {
  const newYork = rota('America/New_York', [
    layer({
      members: ['day', 'night'],
      rotation: { type: 'custom', length_hours: 12, handoff: '08:00', start: '2026-03-07' },
    }),
  ]);

  it('keeps 08:00 and 20:00 local across the spring change: the night is 11 hours', () => {
    expect(table(newYork, '2026-03-07T13:00:00Z', '2026-03-09T00:00:00Z')).toEqual([
      ['day', '2026-03-07T13:00:00.000Z', '2026-03-08T01:00:00.000Z'],
      ['night', '2026-03-08T01:00:00.000Z', '2026-03-08T12:00:00.000Z'],
      ['day', '2026-03-08T12:00:00.000Z', '2026-03-09T00:00:00.000Z'],
    ]);
  });

  it('keeps 08:00 and 20:00 local across the autumn change: the night is 13 hours', () => {
    const shifts = table(newYork, '2026-11-01T00:00:00Z', '2026-11-02T01:00:00Z');
    expect(shifts).toEqual([
      ['night', '2026-11-01T00:00:00.000Z', '2026-11-01T13:00:00.000Z'],
      ['day', '2026-11-01T13:00:00.000Z', '2026-11-02T01:00:00.000Z'],
    ]);
  });
});

describe('a zone without DST (Asia/Tokyo)', () => {
  it('hands over every 24 hours at the same instant all year', () => {
    const tokyo = rota('Asia/Tokyo', [
      layer({ rotation: { type: 'weekly', handoff: '10:00', start: '2026-01-05' } }),
    ]);
    const shifts = finalShifts(tokyo, ms('2026-03-02T01:00:00Z'), ms('2026-11-02T01:00:00Z'));
    expect(
      shifts.every((s) => new Date(s.start).getUTCHours() === 1 || s.start === ms('2026-03-02T01:00:00Z')),
    ).toBe(true);
    expect(shifts.every((s, i) => i === shifts.length - 1 || s.end - s.start === 7 * 24 * 3_600_000)).toBe(
      true,
    );
  });
});

describe('handoffs that DST moves', () => {
  const nightly = rota('Europe/Berlin', [
    layer({ rotation: { type: 'daily', handoff: '02:30', start: '2026-03-28' } }),
  ]);

  it('hands over just after a spring-forward gap (02:30 does not exist: 03:30 CEST)', () => {
    expect(table(nightly, '2026-03-28T01:30:00Z', '2026-03-30T00:30:00Z')).toEqual([
      ['ann', '2026-03-28T01:30:00.000Z', '2026-03-29T01:30:00.000Z'],
      ['bob', '2026-03-29T01:30:00.000Z', '2026-03-30T00:30:00.000Z'],
    ]);
  });

  it('hands over once, at the first 02:30, in a fall-back overlap', () => {
    const autumn = rota('Europe/Berlin', [
      layer({ rotation: { type: 'daily', handoff: '02:30', start: '2026-10-24' } }),
    ]);
    expect(table(autumn, '2026-10-24T00:30:00Z', '2026-10-26T01:30:00Z')).toEqual([
      ['ann', '2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z'],
      ['bob', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
    ]);
  });
});

describe('restrictions, layers and overrides', () => {
  // Layer 1: the whole team, weekly from Monday 09:00. Layer 2 (higher): weekdays 09:00-17:00 only.
  const team = layer({
    id: 'all',
    name: 'Everyone',
    members: ['ann', 'bob'],
    rotation: { type: 'weekly', handoff: '09:00', start: '2026-06-01' },
  });
  const office = layer({
    id: 'office',
    name: 'Office hours',
    members: ['cat'],
    rotation: { type: 'daily', handoff: '09:00', start: '2026-06-01' },
    restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
  });

  it('lets the higher layer win inside its window and the lower one outside it', () => {
    const r = rota('Europe/Berlin', [team, office]);
    // Tuesday 2 June 2026, CEST (UTC+2): 09:00-17:00 local is 07:00-15:00Z.
    expect(table(r, '2026-06-02T00:00:00Z', '2026-06-03T00:00:00Z')).toEqual([
      ['ann', '2026-06-02T00:00:00.000Z', '2026-06-02T07:00:00.000Z'],
      ['cat', '2026-06-02T07:00:00.000Z', '2026-06-02T15:00:00.000Z'],
      ['ann', '2026-06-02T15:00:00.000Z', '2026-06-03T00:00:00.000Z'],
    ]);
    // Saturday: the office layer has nobody, so the team layer holds the whole day.
    expect(table(r, '2026-06-06T00:00:00Z', '2026-06-07T00:00:00Z')).toEqual([
      ['ann', '2026-06-06T00:00:00.000Z', '2026-06-07T00:00:00.000Z'],
    ]);
  });

  it('puts an override above every layer, the last listed winning where two overlap', () => {
    const r = rota(
      'Europe/Berlin',
      [team, office],
      [
        { id: 'o1', user_id: 'dan', starts_at: '2026-06-02T12:00:00Z', ends_at: '2026-06-02T18:00:00Z' },
        { id: 'o2', user_id: 'eve', starts_at: '2026-06-02T14:00:00Z', ends_at: '2026-06-02T16:00:00Z' },
      ],
    );
    expect(table(r, '2026-06-02T11:00:00Z', '2026-06-02T19:00:00Z')).toEqual([
      ['cat', '2026-06-02T11:00:00.000Z', '2026-06-02T12:00:00.000Z'],
      ['dan', '2026-06-02T12:00:00.000Z', '2026-06-02T14:00:00.000Z'],
      ['eve', '2026-06-02T14:00:00.000Z', '2026-06-02T16:00:00.000Z'],
      ['dan', '2026-06-02T16:00:00.000Z', '2026-06-02T18:00:00.000Z'],
      ['ann', '2026-06-02T18:00:00.000Z', '2026-06-02T19:00:00.000Z'],
    ]);
    expect(onCallAt(r, ms('2026-06-02T15:00:00Z'))).toEqual({
      user_id: 'eve',
      source: { type: 'override', override_id: 'o2' },
      until: ms('2026-06-02T16:00:00Z'),
    });
  });

  it('runs a restriction past midnight when it ends before it starts', () => {
    const weekend = layer({
      rotation: { type: 'daily', handoff: '00:00', start: '2026-06-01' },
      members: ['ann'],
      restrictions: [{ days: ['fri'], from: '18:00', to: '09:00' }],
    });
    const spans = layerShifts(weekend, 'UTC', ms('2026-06-05T00:00:00Z'), ms('2026-06-07T00:00:00Z'));
    expect(spans.map((s) => [iso(s.start), iso(s.end)])).toEqual([
      ['2026-06-05T18:00:00.000Z', '2026-06-06T00:00:00.000Z'],
      ['2026-06-06T00:00:00.000Z', '2026-06-06T09:00:00.000Z'],
    ]);
  });

  it('keeps a layer to its own start and end', () => {
    const bounded = layer({
      rotation: { type: 'daily', handoff: '09:00', start: '2026-06-01' },
      starts_at: '2026-06-03T12:00:00Z',
      ends_at: '2026-06-04T12:00:00Z',
    });
    expect(table(rota('UTC', [bounded]), '2026-06-01T00:00:00Z', '2026-06-10T00:00:00Z')).toEqual([
      ['ann', '2026-06-03T12:00:00.000Z', '2026-06-04T09:00:00.000Z'],
      ['bob', '2026-06-04T09:00:00.000Z', '2026-06-04T12:00:00.000Z'],
    ]);
  });
});

describe('the rota schema', () => {
  it('refuses a custom rotation without a length and a fixed one with a length, naming the field', () => {
    const bad = rotaSchema.safeParse({
      time_zone: 'Mars/Olympus',
      layers: [
        layer({ rotation: { type: 'custom', handoff: '09:00', start: '2026-06-01' } }),
        layer({ rotation: { type: 'daily', length_hours: 12, handoff: '25:00', start: '2026-02-30' } }),
      ],
      overrides: [
        { id: 'o', user_id: 'ann', starts_at: '2026-06-02T00:00:00Z', ends_at: '2026-06-01T00:00:00Z' },
      ],
    });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join('.')).sort();
    expect(paths).toEqual([
      'layers.0.rotation.length_hours',
      'layers.1.rotation.handoff',
      'layers.1.rotation.length_hours',
      'layers.1.rotation.start',
      'overrides.0.ends_at',
      'time_zone',
    ]);
  });
});

describe('the worked example of docs/on-call.md', () => {
  // Americas (lowest) holds the whole week; Europe (higher) wins on weekdays 08:00-20:00 Berlin.
  const shop = rota(
    'Europe/Berlin',
    [
      layer({
        id: 'americas',
        members: ['cy', 'dee'],
        rotation: { type: 'weekly', handoff: '20:00', start: '2026-11-30' },
      }),
      layer({
        id: 'europe',
        members: ['ana', 'ben'],
        rotation: { type: 'daily', handoff: '08:00', start: '2026-11-30' },
        restrictions: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' }],
      }),
    ],
    [{ id: 'o1', user_id: 'dee', starts_at: '2026-12-01T07:00:00Z', ends_at: '2026-12-01T19:00:00Z' }],
  );
  const who = (at: string) => onCallAt(shop, ms(at)).user_id;

  it('answers who the docs say, at each moment they name', () => {
    expect(who('2026-11-30T09:00:00Z')).toBe('ana'); // Monday 10:00 Berlin
    expect(who('2026-11-30T20:00:00Z')).toBe('cy'); // Monday 21:00
    expect(who('2026-11-30T20:10:00Z')).toBe('cy'); // Monday 21:10: the incident's page
    expect(who('2026-12-01T07:00:00Z')).toBe('dee'); // Tuesday 08:00: the override over Ben
    expect(who('2026-12-01T18:59:00Z')).toBe('dee');
    expect(who('2026-12-02T09:00:00Z')).toBe('ana'); // Wednesday 10:00
    expect(who('2026-12-05T12:00:00Z')).toBe('cy'); // Saturday
  });
});
