import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DueClaim, generateShard } from '../../lib/checks/services/generator.ts';
import { dueSubKeyOf, shardOf } from '../../lib/domain/schedules.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { ConditionFailedError, type Item } from '../../lib/store/table.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';
import { deadmanTicks } from '../support/deadman-tick.ts';
import { pingKit } from '../support/ping-compat-kit.ts';
import { storedKeys } from '../support/stored-keys.ts';

/**
 * The due index's write sharding (issue 78 point 5, docs/data-model.md "Checks"): a check's due
 * entry sits under its shard's sub-key, `DUE#<shard>#<nn>` (nn = dueSubKeyOf, 64 of them), so the
 * heartbeats of one burst move their entries on many index partitions, not on 4. The generator
 * reads every sub-key of its shard and the one key earlier releases wrote (`DUE#<shard>`), merged
 * oldest first; a claim moves an entry it found under the old key to its sub-key.
 */

describe.each(bothRuntimes)("the due index's sub-keys ($runtime runtime)", ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(Date.parse('2026-03-02T03:00:00.000Z'));
  const kit = pingKit(() => api);
  const stateOf = async (checkId: string): Promise<Item> => {
    const state = await api.table.get(storedKeys.checkState(api.tenantId, checkId), { consistent: true });
    if (!state) throw new Error(`no state of ${checkId}`);
    return state;
  };
  const shards = () => api.app.config.dueShards;
  const subKey = (checkId: string) =>
    `DUE#${shardOf(checkId, shards())}#${String(dueSubKeyOf(checkId)).padStart(2, '0')}`;
  const ping = async (token: string, path = '') =>
    expect((await api.request('GET', `/ping/${token}${path}`)).status).toBe(200);

  beforeAll(async () => {
    api = await start({ clock, scheduler: false });
  });
  afterAll(async () => {
    await api.close();
  });

  it("puts a push check's due entry under its shard's sub-key, and each ping's move keeps it there", async () => {
    const { checkId, token } = await kit.pushCheck();
    await ping(token);
    const pinged = await stateOf(checkId);
    expect(shards()).toBe(4);
    expect(pinged).toMatchObject({ gsi2pk: subKey(checkId), gsi2sk: `${pinged.next_run_at}#${checkId}` });
    clock.advance(60_000);
    await ping(token);
    const again = await stateOf(checkId);
    expect(again.gsi2sk).not.toBe(pinged.gsi2sk);
    expect(again).toMatchObject({ gsi2pk: subKey(checkId), gsi2sk: `${again.next_run_at}#${checkId}` });
  });

  it('the generator reads every sub-key of a shard and the key of earlier releases, oldest first, and claims each once', async () => {
    // Twelve heartbeats pinged a second apart: their deadlines are a second apart, in that order.
    const checks: { checkId: string; token: string }[] = [];
    for (let i = 0; i < 12; i += 1) {
      const check = await kit.pushCheck();
      await ping(check.token);
      checks.push(check);
      clock.advance(1000);
    }
    const ids = checks.map((c) => c.checkId);
    expect(new Set(ids.map(subKey)).size).toBeGreaterThan(1);
    // Two of them as an earlier release stored them: the entry under the shard's one key.
    const legacy = [ids[3], ids[8]].map(String);
    for (const id of legacy) {
      const state = await stateOf(id);
      const gsi2pk = `DUE#${shardOf(id, shards())}`;
      await api.table.transact([{ type: 'put', item: { ...state, gsi2pk, schema_version: 1 } }]);
      expect(await stateOf(id)).toMatchObject({ gsi2pk });
    }

    clock.advance(3 * 3_600_000);
    const claims: DueClaim[] = [];
    for (let shard = 0; shard < shards(); shard += 1) {
      const found: DueClaim[] = [];
      await generateShard(shard, clock.now() + 1000, {
        table: api.table,
        nowMs: clock.now(),
        dueShards: shards(),
        logger: silentLogger,
        // Pages of 2: the merge of the shard's partitions goes on across pages.
        pageSize: 2,
        dispatch: async (page) => {
          expect(page.length).toBeLessThanOrEqual(2);
          found.push(...page);
        },
      });
      const mine = found.filter((c) => ids.includes(c.job.check_id));
      // Each shard's checks, oldest deadline first: the order they were pinged in.
      expect(mine.map((c) => c.job.check_id)).toEqual(ids.filter((id) => shardOf(id, shards()) === shard));
      expect(found.map((c) => c.dueMs)).toEqual(found.map((c) => c.dueMs).sort((a, b) => a - b));
      claims.push(...mine);
    }
    expect(claims.map((c) => c.job.check_id).sort()).toEqual([...ids].sort());

    for (const claim of claims) await api.table.transact([claim.claim]);
    // A second claim of a slot (a redelivery, an overlapping generator) fails: it is claimed once.
    await expect(api.table.transact([claims[0]?.claim as DueClaim['claim']])).rejects.toBeInstanceOf(
      ConditionFailedError,
    );
    // The claim moved each entry on, the old key's under its sub-key, and nothing is due any more.
    for (const id of ids) expect(await stateOf(id)).toMatchObject({ gsi2pk: subKey(id) });
    const left = await deadmanTicks(() => api, clock).dueClaims();
    expect(left.filter((c) => ids.includes(c.job.check_id))).toEqual([]);
  });

  it("runs the dead man's switch of a check whose entry is under the key of earlier releases", async () => {
    const { checkId, token } = await kit.pushCheck();
    await ping(token);
    const state = await stateOf(checkId);
    const gsi2pk = `DUE#${shardOf(checkId, shards())}`;
    await api.table.transact([{ type: 'put', item: { ...state, gsi2pk, schema_version: 1 } }]);
    clock.advance(3 * 3_600_000);
    const ran = await deadmanTicks(() => api, clock).tick();
    expect(ran).toContain('deadman:recorded');
    expect(await stateOf(checkId)).toMatchObject({ state: 'down', gsi2pk: subKey(checkId) });
  });
});
