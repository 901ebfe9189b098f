import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type WindowRecord, windowCreatedOp } from '../../lib/maintenance/maintenance-items.ts';
import { noticeMoments, noticesFor } from '../../lib/maintenance/notices.ts';
import { createSqliteTable, openSqliteDatabase } from '../../lib/sqlite/sqlite-table.ts';

/**
 * When an announced window is listed for a page's entities, and the moments subscribers may be
 * told of. The listing rule is a property over generated windows, pages and times (fast-check;
 * seed printed, replay it with VIGIL_MODEL_SEED=<seed>): a window is listed for a page iff it is
 * announced, covers one of the page's entities (by id or blueprint), and now is in [its notice
 * start, end + 24 h) for some run (a one-off window's announce_from, or none; a recurring window's
 * run start minus its lead).
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-06-10T12:00:00.000Z');
const TENANT = 'tnt_01J00000000000000000000000';
const iso = (ms: number) => new Date(ms).toISOString();

function windowOf(id: number, fields: Partial<WindowRecord>): WindowRecord {
  return {
    id: `mnt_01J0000000000000000000${String(id).padStart(4, '0')}`,
    tenant_id: TENANT,
    name: `Window ${id}`,
    entity_ids: [],
    blueprint_slugs: [],
    include_dependents: false,
    starts_at: null,
    ends_at: null,
    cron: null,
    duration_seconds: null,
    timezone: null,
    announce: true,
    announce_from: null,
    announce_lead_seconds: null,
    announced_at: iso(T0 - 30 * DAY),
    public_note: null,
    created_at: iso(T0 - 30 * DAY),
    updated_at: iso(T0 - 30 * DAY),
    version: 1,
    ...fields,
  };
}

describe('noticeMoments', () => {
  it('gives a one-off window’s announcement, start and end that fall in the interval, in order', () => {
    const window = windowOf(1, {
      starts_at: iso(T0 + 2 * HOUR),
      ends_at: iso(T0 + 3 * HOUR),
      announce_from: iso(T0 + HOUR),
    });
    const at = (from: number, to: number) =>
      noticeMoments(window, from, to).map((m) => [m.kind, m.atMs - T0]);
    expect(at(T0, T0 + DAY)).toEqual([
      ['announced', HOUR],
      ['started', 2 * HOUR],
      ['ended', 3 * HOUR],
    ]);
    // Half-open: the start belongs to the interval it begins, the end of one is the next's.
    expect(at(T0 + HOUR + 1, T0 + 2 * HOUR)).toEqual([]);
    expect(at(T0 + 2 * HOUR, T0 + 2 * HOUR + 1)).toEqual([['started', 2 * HOUR]]);
    expect(noticeMoments({ ...window, announce: false }, T0, T0 + DAY)).toEqual([]);
  });

  it('announces a window saved after its announce_from when it is saved, and tells nothing from before that', () => {
    const window = windowOf(2, {
      starts_at: iso(T0 - HOUR),
      ends_at: iso(T0 + HOUR),
      announced_at: iso(T0),
    });
    expect(noticeMoments(window, T0 - DAY, T0 + DAY).map((m) => [m.kind, m.atMs - T0])).toEqual([
      ['announced', 0],
      ['ended', HOUR],
    ]);
  });

  it('gives each run of a recurring window its announcement lead_seconds before its start', () => {
    const window = windowOf(3, {
      cron: '0 3 * * *',
      duration_seconds: 3600,
      timezone: 'UTC',
      announce_lead_seconds: 6 * 3600,
    });
    // 2026-06-10T12:00Z to the 12th 12:00Z: runs at 03:00 on the 11th and 12th, announced at 21:00 the day before.
    const moments = noticeMoments(window, T0, T0 + 2 * DAY).map((m) => `${m.kind} ${iso(m.atMs)}`);
    expect(moments).toEqual([
      'announced 2026-06-10T21:00:00.000Z',
      'started 2026-06-11T03:00:00.000Z',
      'ended 2026-06-11T04:00:00.000Z',
      'announced 2026-06-11T21:00:00.000Z',
      'started 2026-06-12T03:00:00.000Z',
      'ended 2026-06-12T04:00:00.000Z',
    ]);
  });
});

const seed = process.env.VIGIL_MODEL_SEED ? Number(process.env.VIGIL_MODEL_SEED) : Date.now() % 2 ** 31;

const ENTITIES = [
  { id: 'ent_01J000000000000000000000E1', blueprint_slug: 'service' },
  { id: 'ent_01J000000000000000000000E2', blueprint_slug: 'service' },
  { id: 'ent_01J000000000000000000000E3', blueprint_slug: 'jobs' },
  { id: 'ent_01J000000000000000000000E4', blueprint_slug: 'jobs' },
];

/** A generated window: one-off around T0, or daily at hh:mm UTC with a lead. */
const windowArb = fc.record({
  announce: fc.boolean(),
  entityIdx: fc.subarray([0, 1, 2, 3]),
  blueprints: fc.subarray(['service', 'jobs', 'other']),
  schedule: fc.oneof(
    fc.record({
      kind: fc.constant('once' as const),
      startOffset: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
      duration: fc.integer({ min: 60_000, max: 2 * DAY }),
      announceBefore: fc.option(fc.integer({ min: 0, max: 3 * DAY }), { nil: undefined }),
    }),
    fc.record({
      kind: fc.constant('daily' as const),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      durationMinutes: fc.integer({ min: 1, max: 36 * 60 }),
      leadSeconds: fc.integer({ min: 0, max: 3 * 86_400 }),
    }),
  ),
});
type GeneratedWindow = typeof windowArb extends fc.Arbitrary<infer T> ? T : never;

function recordOf(g: GeneratedWindow, i: number): WindowRecord {
  const cover = { entity_ids: g.entityIdx.map((k) => ENTITIES[k]?.id ?? ''), blueprint_slugs: g.blueprints };
  const s = g.schedule;
  if (s.kind === 'once') {
    const start = T0 + s.startOffset;
    return windowOf(i, {
      ...cover,
      announce: g.announce,
      starts_at: iso(start),
      ends_at: iso(start + s.duration),
      announce_from: s.announceBefore === undefined ? null : iso(start - s.announceBefore),
    });
  }
  return windowOf(i, {
    ...cover,
    announce: g.announce,
    cron: `${s.minute} ${s.hour} * * *`,
    duration_seconds: s.durationMinutes * 60,
    timezone: 'UTC',
    announce_lead_seconds: s.leadSeconds,
  });
}

/** The model: the spans [notice start, end + 24 h) of the window's runs near now, by arithmetic. */
function listedByModel(g: GeneratedWindow, pageIdx: number[], nowMs: number): boolean {
  if (!g.announce) return false;
  const covers = pageIdx.some(
    (k) => g.entityIdx.includes(k) || g.blueprints.includes(ENTITIES[k]?.blueprint_slug ?? ''),
  );
  if (!covers) return false;
  const s = g.schedule;
  if (s.kind === 'once') {
    const start = T0 + s.startOffset;
    const from = s.announceBefore === undefined ? Number.NEGATIVE_INFINITY : start - s.announceBefore;
    return nowMs >= from && nowMs < start + s.duration + DAY;
  }
  const midnight = Math.floor(nowMs / DAY) * DAY;
  for (let day = -4; day <= 4; day += 1) {
    const start = midnight + day * DAY + s.hour * HOUR + s.minute * 60_000;
    if (nowMs >= start - s.leadSeconds * 1000 && nowMs < start + s.durationMinutes * 60_000 + DAY)
      return true;
  }
  return false;
}

/** The times at which a window's listing may change: its notice start, start, end and end + 24 h. */
function edgesOf(g: GeneratedWindow): number[] {
  const s = g.schedule;
  if (s.kind === 'once') {
    const start = T0 + s.startOffset;
    const end = start + s.duration;
    return [...(s.announceBefore === undefined ? [] : [start - s.announceBefore]), start, end, end + DAY];
  }
  const start = Math.floor(T0 / DAY) * DAY + s.hour * HOUR + s.minute * 60_000;
  const end = start + s.durationMinutes * 60_000;
  return [start - s.leadSeconds * 1000, start, end, end + DAY];
}

describe('which windows a page lists', () => {
  it(`lists a window iff it is announced, covers a page entity and now is in [notice start, end + 24 h) (seed ${seed})`, async () => {
    console.info(`maintenance notices listing: seed ${seed}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(windowArb, { minLength: 1, maxLength: 5 }),
        fc.subarray([0, 1, 2, 3], { minLength: 1 }),
        // Now: anywhere in eight days, or within two minutes of one of the windows' edges.
        fc.oneof(
          fc.record({ offset: fc.integer({ min: -4 * DAY, max: 4 * DAY }) }),
          fc.record({ edge: fc.nat(), delta: fc.integer({ min: -120_000, max: 120_000 }) }),
        ),
        async (generated, pageIdx, when) => {
          const table = createSqliteTable({ db: openSqliteDatabase(':memory:') });
          const records = generated.map((g, i) => recordOf(g, i + 1));
          await table.transact(records.map(windowCreatedOp));
          const edges = generated.flatMap(edgesOf);
          const nowMs =
            'offset' in when ? T0 + when.offset : (edges[when.edge % edges.length] ?? T0) + when.delta;
          const page = pageIdx.flatMap((k) => ENTITIES[k] ?? []);
          const notices = await noticesFor(table, TENANT, page, nowMs);
          const expected = new Set(
            generated.flatMap((g, i) => (listedByModel(g, pageIdx, nowMs) ? [records[i]?.name] : [])),
          );
          expect(new Set(notices.map((n) => n.name))).toEqual(expected);
          // Only the page's entities are ever named as covered.
          for (const notice of notices)
            expect(page.map((e) => e.id)).toEqual(expect.arrayContaining(notice.entity_ids));
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
