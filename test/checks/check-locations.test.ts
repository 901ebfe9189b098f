import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locationResultOp } from '../../lib/checks/items/location-result-items.ts';
import type { LocationOutcome } from '../../lib/domain/states/quorum.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietTcpCheck } from './check-fixtures.ts';

/**
 * Checks choose where they probe from (issue 40): `locations` names the tenant's locations and
 * `quorum` how many must report failure. The API refuses what cannot run, shows each check's
 * locations and effective quorum, each decided slot's per-location outcomes (and an inconclusive
 * slot as neither up nor down), one location's own rows with ?location=, and keeps a location a
 * check still names.
 */

const START = Date.parse('2026-03-01T00:00:00.000Z');
const SLOT = 60_000;

const outcome = (location: string, what: LocationOutcome['outcome'], code: number | null = 200) => ({
  location,
  outcome: what,
  status_code: what === 'unknown' ? null : code,
  latency_ms: what === 'unknown' ? null : 12,
  error_message: what === 'down' ? 'connection refused' : '',
});

describe.each(runtimes)('checks with locations ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let entityId: string;
  const clock = createFakeClock(START);
  const locationIds = new Map<string, string>();
  const call = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key: api.adminKey, body });

  beforeAll(async () => {
    api = await start({ clock, scheduler: false });
    entityId = await newEntity(api);
    for (const name of ['office', 'eu-west-1']) {
      const res = await call('POST', '/v1/locations', { name, kind: 'agent' });
      expect(res.status, res.text).toBe(201);
      locationIds.set(name, res.body.id);
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  const located = (extra: Record<string, unknown> = {}) =>
    quietTcpCheck(entityId, { locations: ['default', 'office', 'eu-west-1'], ...extra });

  describe('validation', () => {
    it('refuses a location the tenant does not have, naming it', async () => {
      const res = await call('POST', '/v1/checks', located({ locations: ['default', 'mars'] }));

      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual([{ path: 'locations.1', message: expect.stringContaining('mars') }]);
    });

    it('refuses locations on a push check, on create and on update', async () => {
      const created = await call('POST', '/v1/checks', {
        entity_id: entityId,
        check_type: 'push',
        locations: ['office'],
      });
      const pushId = await newCheck(api, { entity_id: entityId, check_type: 'push' });
      const updated = await call('PUT', `/v1/checks/${pushId}`, { locations: ['default', 'office'] });

      expect(created.status).toBe(400);
      expect(created.body.details[0].path).toMatch(/^locations/);
      expect(updated.status).toBe(400);
      expect(updated.body.details).toEqual([{ path: 'locations', message: expect.stringContaining('Push') }]);
    });

    it('refuses a quorum larger than the number of locations', async () => {
      const res = await call('POST', '/v1/checks', located({ locations: ['default', 'office'], quorum: 3 }));

      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'quorum', message: expect.stringContaining('1 to 2') }]);
    });

    it('refuses a location named twice, and no location at all', async () => {
      const twice = await call('POST', '/v1/checks', located({ locations: ['office', 'office'] }));
      const none = await call('POST', '/v1/checks', located({ locations: [] }));

      expect(twice.status).toBe(400);
      expect(twice.body.details[0]).toMatchObject({ path: 'locations', message: 'Name each location once.' });
      expect(none.status).toBe(400);
      expect(none.body.details[0].path).toBe('locations');
    });
  });

  describe('round trip', () => {
    it('shows ["default"] and quorum 1 on a check that names no locations', async () => {
      const id = await newCheck(api, quietTcpCheck(entityId));

      const res = await call('GET', `/v1/checks/${id}`);

      expect(res.body).toMatchObject({ locations: ['default'], quorum: 1 });
      expect(res.body).not.toHaveProperty('last_locations');
    });

    it('creates, reads and updates a located check; the quorum shown is the effective one', async () => {
      const created = await call('POST', '/v1/checks', located());
      expect(created.status, created.text).toBe(201);
      const id = created.body.id;
      // A located check runs per slot outside cells: it keeps its own next run.
      expect(created.body).toMatchObject({
        locations: ['default', 'office', 'eu-west-1'],
        quorum: 2,
        next_run_at: expect.any(String),
      });

      const read = await call('GET', `/v1/checks/${id}`);
      const set = await call('PUT', `/v1/checks/${id}`, { quorum: 3 });
      const moved = await call('PUT', `/v1/checks/${id}`, { locations: ['office'], quorum: null });
      const unknown = await call('PUT', `/v1/checks/${id}`, { locations: ['office', 'mars'] });
      const tooMany = await call('PUT', `/v1/checks/${id}`, { quorum: 2 });

      expect(read.body).toMatchObject({ locations: ['default', 'office', 'eu-west-1'], quorum: 2 });
      expect(set.status, set.text).toBe(200);
      expect(set.body).toMatchObject({ locations: ['default', 'office', 'eu-west-1'], quorum: 3 });
      expect(moved.body).toMatchObject({ locations: ['office'], quorum: 1 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.details[0].path).toBe('locations.1');
      expect(tooMany.status).toBe(400);
      expect((await call('GET', `/v1/checks/${id}`)).body).toMatchObject({
        locations: ['office'],
        quorum: 1,
      });
    });

    it('moves a check from its cell to its own slots when it names other locations, and back', async () => {
      const id = await newCheck(api, quietTcpCheck(entityId));

      const out = await call('PUT', `/v1/checks/${id}`, { locations: ['default', 'office'] });
      const back = await call('PUT', `/v1/checks/${id}`, { locations: ['default'] });

      expect(out.body).toMatchObject({ locations: ['default', 'office'], next_run_at: expect.any(String) });
      expect(back.body).toMatchObject({ locations: ['default'], quorum: 1 });
    });
  });

  describe('decided slots', () => {
    /** Records a failed slot of check `id` at `slotMs` (status 0, 12 ms) as its locations decided it. */
    const recordFailedSlot = (
      id: string,
      slotMs: number,
      fields: { error_message: string; locations: ReturnType<typeof outcome>[]; inconclusive?: true },
    ) =>
      api.app.recorder.record({
        tenantId: api.tenantId,
        checkId: id,
        success: false,
        status_code: 0,
        latency_ms: 12,
        checkedAtMs: slotMs,
        slotMs,
        ...fields,
      });

    it('shows each location of the last decided slot on the check and on its result', async () => {
      const id = await newCheck(api, located({ failure_threshold: 1 }));
      const slotMs = START - 10 * SLOT;
      const locations = [
        outcome('default', 'up'),
        outcome('office', 'down', 0),
        outcome('eu-west-1', 'down', 0),
      ];

      const recorded = await recordFailedSlot(id, slotMs, {
        error_message:
          'down from 2 of 3 locations: office connection refused, eu-west-1 connection refused; default ok',
        locations,
      });
      const check = await call('GET', `/v1/checks/${id}`);
      const results = await call('GET', `/v1/checks/${id}/results`);

      expect(recorded.status).toBe('recorded');
      expect(check.body).toMatchObject({ state: 'down', last_locations: locations });
      expect(results.body.results).toEqual([
        expect.objectContaining({ outcome: 'down', success: false, locations }),
      ]);
      expect(results.body.results[0]).not.toHaveProperty('inconclusive');
    });

    it('lists an inconclusive slot as neither up nor down, and it moves no state', async () => {
      const id = await newCheck(api, located({ failure_threshold: 1 }));
      const slotMs = START - 5 * SLOT;
      const locations = [
        outcome('default', 'down', 0),
        outcome('office', 'unknown'),
        outcome('eu-west-1', 'unknown'),
      ];

      const recorded = await recordFailedSlot(id, slotMs, {
        error_message:
          'inconclusive: 1 of 3 locations reported: default connection refused; office no report',
        locations,
        inconclusive: true,
      });
      const check = await call('GET', `/v1/checks/${id}`);
      const results = await call('GET', `/v1/checks/${id}/results`);
      const listed = await call('GET', `/v1/checks?entity_id=${entityId}&limit=50&include=recent`);

      expect(recorded.status).toBe('recorded');
      expect(check.body).toMatchObject({ state: 'unknown', consecutive_failures: 0, last_result_at: null });
      expect(results.body.results).toEqual([
        expect.objectContaining({ outcome: 'inconclusive', inconclusive: true, success: false, locations }),
      ]);
      // The checks list's strip of recent outcomes leaves it out.
      const row = listed.body.find((c: { id: string }) => c.id === id);
      expect(row.recent.results).toEqual([]);
    });
    it('leaves an inconclusive slot out of the raw sparkline: neither a result nor a failure', async () => {
      const id = await newCheck(api, located({ failure_threshold: 1 }));
      const base = {
        tenantId: api.tenantId,
        checkId: id,
        success: false,
        status_code: 0,
        latency_ms: 40,
        error_message: 'down',
      };
      const downAt = START - 20 * SLOT;
      const undecidedAt = START - 19 * SLOT;
      await api.app.recorder.record({
        ...base,
        checkedAtMs: downAt,
        slotMs: downAt,
        locations: [outcome('default', 'down', 0), outcome('office', 'down', 0), outcome('eu-west-1', 'up')],
      });
      await api.app.recorder.record({
        ...base,
        latency_ms: 900,
        checkedAtMs: undecidedAt,
        slotMs: undecidedAt,
        inconclusive: true,
        locations: [
          outcome('default', 'down', 0),
          outcome('office', 'unknown'),
          outcome('eu-west-1', 'unknown'),
        ],
      });

      // 7 buckets of an hour are not whole 5-minute buckets: read from the raw results.
      const res = await call('GET', `/v1/checks/${id}/sparkline?hours=1&buckets=7`);

      expect(res.status, res.text).toBe(200);
      const buckets = res.body.buckets as {
        total: number;
        failures: number;
        max_latency_ms: number | null;
      }[];
      expect(buckets.reduce((n, b) => n + b.total, 0)).toBe(1);
      expect(buckets.reduce((n, b) => n + b.failures, 0)).toBe(1);
      expect(Math.max(...buckets.map((b) => b.max_latency_ms ?? 0))).toBe(40);
    });
  });

  describe("one location's rows (?location=)", () => {
    it("lists that location's own rows, newest slot first, paged", async () => {
      const id = await newCheck(api, located());
      const row = (slotMs: number, location: string, success: boolean) =>
        locationResultOp(
          {
            tenant_id: api.tenantId,
            check_id: id,
            slot_ms: slotMs,
            location,
            success,
            status_code: success ? 200 : 503,
            latency_ms: slotMs % 1000,
            error_message: success ? '' : 'HTTP 503',
            checked_at: new Date(slotMs + 5).toISOString(),
          },
          Math.floor(START / 1000) + 86_400,
        );
      const slots = [START - 3 * SLOT + 1, START - 2 * SLOT + 2, START - SLOT + 3];
      await api.table.transact(
        slots.flatMap((slotMs, i) => [
          row(slotMs, 'default', true),
          row(slotMs, 'office', i !== 1),
          row(slotMs, 'eu-west-1', true),
        ]),
      );

      // The newest slot decided: a location's row names the result it counted toward.
      const decided = await api.app.recorder.record({
        tenantId: api.tenantId,
        checkId: id,
        success: true,
        status_code: 200,
        latency_ms: 12,
        error_message: '',
        checkedAtMs: slots[2] as number,
        slotMs: slots[2] as number,
        locations: [outcome('default', 'up'), outcome('office', 'up'), outcome('eu-west-1', 'up')],
      });
      if (decided.status !== 'recorded') throw new Error(`not recorded: ${decided.status}`);

      const first = await call('GET', `/v1/checks/${id}/results?location=office&limit=2`);
      const second = await call(
        'GET',
        `/v1/checks/${id}/results?location=office&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      );
      const elsewhere = await call('GET', `/v1/checks/${id}/results?location=mars`);
      const stolen = await call(
        'GET',
        `/v1/checks/${id}/results?location=default&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      );

      expect(first.status, first.text).toBe(200);
      expect(first.body.results).toEqual([
        {
          id: decided.result.id,
          check_id: id,
          location: 'office',
          slot_at: new Date(slots[2] as number).toISOString(),
          status_code: 200,
          latency_ms: (slots[2] as number) % 1000,
          success: true,
          outcome: 'up',
          error_message: '',
          checked_at: new Date((slots[2] as number) + 5).toISOString(),
        },
        expect.objectContaining({
          location: 'office',
          outcome: 'down',
          status_code: 503,
          error_message: 'HTTP 503',
        }),
      ]);
      expect(first.body.next_cursor).toEqual(expect.any(String));
      expect(second.body.results).toEqual([
        expect.objectContaining({ location: 'office', slot_at: new Date(slots[0] as number).toISOString() }),
      ]);
      expect(second.body.next_cursor).toBeNull();
      expect(elsewhere.body).toEqual({ results: [], next_cursor: null });
      // A cursor pages the location it was handed out for.
      expect(stolen.status).toBe(400);
    });
  });

  describe('deleting a location', () => {
    it('is refused with 409 naming a check that still probes from it, and allowed once none does', async () => {
      const res = await call('POST', '/v1/locations', { name: 'lab', kind: 'agent' });
      const id = await newCheck(api, quietTcpCheck(entityId, { locations: ['lab'], name: 'lab probe' }));

      const refused = await call('DELETE', `/v1/locations/${res.body.id}`);
      await call('PUT', `/v1/checks/${id}`, { locations: ['default'] });
      const deleted = await call('DELETE', `/v1/locations/${res.body.id}`);

      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('CONFLICT');
      expect(refused.body.error).toContain('lab probe');
      expect(refused.body.error).toContain(id);
      expect(deleted.status).toBe(204);
    });
  });
});
