import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { capacityPlan } from '../../infra/capacity.ts';
import { GENERATOR_TABLE_ACTIONS } from '../../infra/table.ts';
import { readLease } from '../../lib/checks/cells/cell-items.ts';
import { shardOf } from '../../lib/domain/schedules/schedule.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import {
  type CloudHarness,
  createEntity,
  jobOf,
  START_MS,
  schedulerEvent,
  startCloudHarness,
} from './support.ts';

/**
 * The generator split per shard group (issue 36 item 11): each schedule's payload names its due
 * shards [shard_from, shard_to), and the invocation reads those shards only; together the groups
 * cover every shard once. Its DynamoDB calls stay inside its role (infra/table.ts).
 */

const SHARDS = 4;
let h: CloudHarness;
let entityId: string;
/** The DynamoDB commands the harness's client sent, by name. */
let commands: Set<string>;

beforeEach(async () => {
  h = await startCloudHarness({ env: { VIGIL_DUE_SHARDS: String(SHARDS) } });
  await h.app.tenants.setLimits(h.tenantId, { check_limit_per_entity: 100 });
  entityId = await createEntity(h);
  commands = new Set();
  h.dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const name = String(context.commandName).replace(/Command$/, '');
      // A transaction is allowed by the action of each item it writes (IAM has no action of its own for it).
      const items = (args.input as { TransactItems?: Record<string, unknown>[] }).TransactItems;
      if (name === 'TransactWriteItems' && items)
        for (const item of items) commands.add(`${Object.keys(item)[0]}Item`);
      else commands.add(name);
      return next(args);
    },
    { step: 'initialize', name: 'recordCommands' },
  );
});

afterEach(() => h.close());

/** Push checks whose deadline falls in the first minute: each is due in its own shard (shardOf its id). */
async function pushChecksDueNow(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const check = await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: 300,
    });
    await h.app.recorder.record({
      tenantId: h.tenantId,
      checkId: check.id,
      success: true,
      status_code: 0,
      latency_ms: 0,
      error_message: '',
      checkedAtMs: START_MS + 1000 + i * 1000 - 600_000,
    });
    ids.push(check.id);
  }
  return ids;
}

/** Pull checks at intervals of their own: one cell each, in the shard of its cell. */
async function pullChecks(intervals: number[]): Promise<void> {
  for (const interval_seconds of intervals)
    await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'http',
      interval_seconds,
      target_url: 'https://example.com/',
    });
}

const group = (from: number, to: number) => ({ ...schedulerEvent(START_MS), shard_from: from, shard_to: to });
const sentChecks = () =>
  new Set(
    h.sent.flatMap((m) => {
      const job = JSON.parse(m.body).body as { kind: string; check_id?: string };
      return job.kind === 'deadman' ? [jobOf(m.body).check_id] : [];
    }),
  );

describe('the generator per shard group', () => {
  it('reads only the shards its schedule names; the groups together send every due check once', async () => {
    const ids = await pushChecksDueNow(12);
    await pullChecks([60, 120, 180, 240, 300, 600]);
    const shardsOf = (from: number, to: number) =>
      new Set(ids.filter((id) => shardOf(id, SHARDS) >= from && shardOf(id, SHARDS) < to));
    // The fixture spreads over both groups, or the test would prove nothing.
    expect(shardsOf(0, 2).size).toBeGreaterThan(0);
    expect(shardsOf(2, 4).size).toBeGreaterThan(0);

    const first = await h.runGenerator(group(0, 2));
    expect(sentChecks()).toEqual(shardsOf(0, 2));
    expect(first.claimed).toBe(shardsOf(0, 2).size);
    for (const shard of [2, 3]) expect(await readLease(h.table, shard)).toBeUndefined();

    const second = await h.runGenerator(group(2, 4));
    expect(sentChecks()).toEqual(new Set(ids));
    expect(second.claimed).toBe(shardsOf(2, 4).size);
    for (let shard = 0; shard < SHARDS; shard += 1)
      expect(await readLease(h.table, shard)).toBe(isoTime(START_MS + 70_000));
    // Each cell slot went out once, from the group holding its cell's shard.
    const cellSlots = h.sent.map((m) => JSON.parse(m.body).body).filter((job) => job.kind === 'cell');
    expect(cellSlots.length).toBeGreaterThan(0);
    expect(cellSlots.length).toBe(first.cell_slots + second.cell_slots);
    expect(new Set(cellSlots.map((job) => `${job.cell_id}@${job.slot_ms}`)).size).toBe(cellSlots.length);
  });

  it('without a range (a manual invocation), runs every shard', async () => {
    const ids = await pushChecksDueNow(8);
    await h.runGenerator(schedulerEvent(START_MS));
    expect(sentChecks()).toEqual(new Set(ids));
  });

  it('calls only the DynamoDB actions the generator’s role allows', async () => {
    await pushChecksDueNow(8);
    await pullChecks([60, 120]);
    commands.clear();
    for (const { from, to } of capacityPlan({ dueShards: SHARDS }).shardGroups)
      await h.runGenerator(group(from, to));
    const allowed = new Set(GENERATOR_TABLE_ACTIONS.map((a) => a.replace('dynamodb:', '')));
    expect(commands.size).toBeGreaterThan(0);
    expect([...commands].filter((c) => !allowed.has(c))).toEqual([]);
  });
});
