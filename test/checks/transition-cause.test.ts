import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCell } from '../../lib/checks/cells/cell-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { degradeIfSlow } from '../../lib/probes/outcome.ts';
import type { Prober } from '../../lib/probes/types.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { newCheck, newEntity, quietPushCheck, quietTcpCheck } from './check-fixtures.ts';

/**
 * Issue 51, "the wrong check blamed" (DECISIONS.md "Alert truth (wave 5)", Cause): an entity's
 * transition names the check in the entity's new state, with that check's own reason, whichever
 * check's result or write moved it: on a cell's slot (pull checks), through the result recorder
 * (push checks) and on a check's delete, in both runtimes.
 */

interface EntityTransition {
  check_id: string;
  from_state: string;
  to_state: string;
  reason: string;
}

/** The port of the slow target: its check answers in 400 ms, above its degraded_latency_ms of 100. */
const SLOW_PORT = 9;
const FAST_PORT = 7;

describe.each(runtimes)('the check an entity transition names ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let at = Date.now() - 600_000;

  beforeAll(async () => {
    api = await start();
  });
  afterAll(async () => {
    await api.close();
  });

  /** A fresh tenant: its own cells, and a transition feed of its own entity only. */
  async function tenantWithEntity(name: string) {
    const tenant = await api.createTenant(name);
    const entityId = await newEntity(api, { key: tenant.key, name });
    const feed = async (): Promise<EntityTransition[]> =>
      (await api.request('GET', '/v1/status/transitions', { key: tenant.key })).body.transitions;
    return { tenant, entityId, feed };
  }

  /** Two push checks of the entity, each down at its first failure: the one to fail, and the slow one. */
  async function failingAndSlow(entityId: string, key: string) {
    const failing = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), key);
    const slow = await newCheck(api, quietPushCheck(entityId, { failure_threshold: 1 }), key);
    return { failing, slow };
  }

  /** A result of a push check through the result recorder (status 0, 10 ms), a second after the last one. */
  async function recordNext(
    tenantId: string,
    checkId: string,
    result: { success: boolean; degraded?: boolean; error_message: string },
  ) {
    at += 1000;
    const outcome = await api.app.recorder.record({
      tenantId,
      checkId,
      status_code: 0,
      latency_ms: 10,
      checkedAtMs: at,
      ...result,
    });
    expect(outcome.status).toBe('recorded');
  }

  /** One slot of the cell holding `checkId`, every member probed by a prober that knows the slow target. */
  async function slowSlot(tenantId: string, checkId: string) {
    at += 1000;
    const place = (await getCheckDefinition(api.table, tenantId, checkId, { consistent: true }))?.cell;
    const cell = place && (await getCell(api.table, place.shard, place.cell_id));
    if (!cell) throw new Error(`check ${checkId} runs in no cell`);
    const slotMs = at;
    const prober: Prober = async (def) => {
      const latency = def.port === SLOW_PORT ? 400 : 10;
      const passed = { success: true, status_code: 0, latency_ms: latency, error_message: '' };
      return { startedMs: slotMs, outcome: degradeIfSlow(passed, def.degraded_latency_ms) };
    };
    const runner = createCellRunner({
      table: api.table,
      prober,
      tenants: api.app.tenants,
      clock: { now: () => slotMs },
    });
    const outcome = await runner.run({
      kind: 'cell',
      tenant_id: tenantId,
      cell_id: cell.id,
      shard: cell.shard,
      slot_ms: slotMs,
    });
    expect(outcome.status).toBe('recorded');
  }

  it('names the degraded check, not the up one, when two new checks first answer in one slot', async () => {
    const { tenant, entityId, feed } = await tenantWithEntity('Checkout');
    const slow = await newCheck(
      api,
      quietTcpCheck(entityId, { config: { host: '127.0.0.1', port: SLOW_PORT }, degraded_latency_ms: 100 }),
      tenant.key,
    );
    const fast = await newCheck(
      api,
      quietTcpCheck(entityId, { config: { host: '127.0.0.1', port: FAST_PORT } }),
      tenant.key,
    );

    await slowSlot(tenant.tenantId, fast);

    const checks = await Promise.all(
      [slow, fast].map(
        async (id) => (await api.request('GET', `/v1/checks/${id}`, { key: tenant.key })).body,
      ),
    );
    expect(checks.map((c) => c.state)).toEqual(['degraded', 'up']);
    expect(await feed()).toEqual([
      expect.objectContaining({
        from_state: 'unknown',
        to_state: 'degraded',
        check_id: slow,
        reason: 'degraded: latency 400 ms is above degraded_latency_ms 100',
      }),
    ]);
  });

  it('names the still degraded check with its own reason when the down one recovers (result recorder)', async () => {
    const { tenant, entityId, feed } = await tenantWithEntity('Payments');
    const { failing, slow } = await failingAndSlow(entityId, tenant.key);
    const record = (checkId: string, result: Parameters<typeof recordNext>[2]) =>
      recordNext(tenant.tenantId, checkId, result);

    await record(failing, { success: false, error_message: 'connection refused' });
    await record(slow, { success: true, degraded: true, error_message: 'queue depth 9000' });
    await record(failing, { success: true, error_message: '' });

    const [recovered, opened] = await feed();
    expect(opened).toMatchObject({ from_state: 'unknown', to_state: 'down', check_id: failing });
    expect(recovered).toEqual(
      expect.objectContaining({
        from_state: 'down',
        to_state: 'degraded',
        check_id: slow,
        reason: 'degraded: queue depth 9000',
      }),
    );
  });

  it('names the check left in the new state when the down check is deleted', async () => {
    const { tenant, entityId, feed } = await tenantWithEntity('Search');
    const { failing, slow } = await failingAndSlow(entityId, tenant.key);
    await recordNext(tenant.tenantId, slow, {
      success: true,
      degraded: true,
      error_message: 'index lagging',
    });
    await recordNext(tenant.tenantId, failing, { success: false, error_message: 'connection refused' });

    const deleted = await api.request('DELETE', `/v1/checks/${failing}`, { key: tenant.key });
    expect(deleted.status, deleted.text).toBe(204);

    const [last] = await feed();
    expect(last).toEqual(
      expect.objectContaining({
        from_state: 'down',
        to_state: 'degraded',
        check_id: slow,
        reason: 'degraded: index lagging',
      }),
    );
  });
});
