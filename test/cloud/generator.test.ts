import { SendMessageBatchCommand, type SendMessageBatchCommandInput } from '@aws-sdk/client-sqs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLease } from '../../lib/checks/cells/cell-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import type { ProbeJob } from '../../lib/checks/probe-job.ts';
import { type CellJob, cellJobSchema } from '../../lib/checks/runner/cell-runner.ts';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { createGenerator, GeneratorRunError, LOOKAHEAD_MS } from '../../lib/cloud/workers/generator.ts';
import { isoTime } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Table } from '../../lib/store/table.ts';
import {
  type CloudHarness,
  createEntity,
  jobOf,
  START_MS,
  schedulerEvent,
  startCloudHarness,
} from './support.ts';

/**
 * The cloud generator over the per-check due index, which push checks keep (their dead man's
 * switch deadlines), and over cells, which run pull checks (lib/checks/runner/cell-generator.ts; its
 * lease and window are tested in test/checks/cell-generator.test.ts).
 */

let h: CloudHarness;
let entityId: string;

beforeEach(async () => {
  h = await startCloudHarness({ env: { VIGIL_DUE_SHARDS: '1' } });
  await h.app.tenants.setLimits(h.tenantId, { check_limit_per_entity: 100 });
  entityId = await createEntity(h);
});

afterEach(() => h.close());

/** Push checks: 5-minute interval, so the grace (twice the interval) is 10 minutes. */
const PUSH_INTERVAL_MS = 300_000;
const PUSH_GRACE_MS = 2 * PUSH_INTERVAL_MS;

/**
 * Push checks whose deadline falls inside the generator's first minute (START_MS), spread over it:
 * a push check enters the due index with its first result, due when its grace after it runs out.
 */
async function createChecks(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const check = await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'push',
      interval_seconds: PUSH_INTERVAL_MS / 1000,
    });
    const deadlineMs = START_MS + 1000 + Math.floor((i * 58_000) / n);
    const outcome = await h.app.recorder.record({
      tenantId: h.tenantId,
      checkId: check.id,
      success: true,
      status_code: 0,
      latency_ms: 0,
      error_message: '',
      checkedAtMs: deadlineMs - PUSH_GRACE_MS,
    });
    expect(outcome.status).toBe('recorded');
    ids.push(check.id);
  }
  return ids;
}

const jobs = (): (ProbeJob & { delaySeconds: number })[] =>
  h.sent.map((m) => {
    const { job_id: _id, ...job } = jobOf(m.body);
    return { ...job, delaySeconds: m.delaySeconds };
  });

/** The cell jobs sent (the probe queue carries cell slots for pull checks). */
const cellJobs = (): (CellJob & { delaySeconds: number })[] =>
  h.sent.map((m) => ({
    ...cellJobSchema.parse(jobEnvelopeSchema.parse(JSON.parse(m.body)).body),
    delaySeconds: m.delaySeconds,
  }));

const batchSizes = () =>
  h.sqsMock.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input.Entries?.length ?? 0);

const nextRunAt = async (id: string) => (await h.app.checks.get(h.tenantId, id))?.next_run_at;

describe('the generator handler', () => {
  it('enqueues every due check with SendMessageBatch, 10 entries per call, then claims it', async () => {
    const ids = await createChecks(23);

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 23, claimed: 23, already_claimed: 0, unsent: 0, claim_errors: 0 });
    expect(counts.enqueued).toBe(h.sent.length);
    const sizes = batchSizes();
    expect(sizes.slice(0, -1).every((n) => n === 10)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(h.sent.length);
    expect(new Set(jobs().map((j) => j.check_id))).toEqual(new Set(ids));
    for (const id of ids) {
      // Claimed: the next run is past this window, so the next minute does not find it again.
      expect(Date.parse(String(await nextRunAt(id)))).toBeGreaterThanOrEqual(
        START_MS + 60_000 + LOOKAHEAD_MS,
      );
    }
  });

  it('sends the jobs before it claims their checks', async () => {
    const ids = await createChecks(3);
    const before = await Promise.all(ids.map(nextRunAt));
    const seenAtSend: (string | null | undefined)[] = [];
    h.sqsMock.on(SendMessageBatchCommand).callsFake(async (input: SendMessageBatchCommandInput) => {
      seenAtSend.push(...(await Promise.all(ids.map(nextRunAt))));
      return h.accept(input);
    });

    await h.runGenerator(schedulerEvent(START_MS));

    expect(seenAtSend).toEqual(before);
    expect(await Promise.all(ids.map(nextRunAt))).not.toEqual(before);
  });

  it('delays each job to its slot inside the minute, and an overdue job not at all', async () => {
    await createChecks(12);
    h.clock.set(START_MS + 30_000);

    await h.runGenerator(schedulerEvent(START_MS));

    const sent = jobs();
    expect(sent.length).toBeGreaterThanOrEqual(12);
    for (const job of sent) {
      expect(job.delaySeconds).toBe(Math.max(0, Math.ceil((job.slot_ms - (START_MS + 30_000)) / 1000)));
    }
    expect(new Set(sent.map((j) => j.delaySeconds)).size).toBeGreaterThan(3);
    expect(sent.some((j) => j.delaySeconds === 0)).toBe(true);
  });

  it("sends one job per slot of a pull check's cell for intervals shorter than a minute", async () => {
    const check = await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'http',
      target_url: 'https://example.com/',
      interval_seconds: 15,
    });
    const place = (await getCheckDefinition(h.table, h.tenantId, check.id, { consistent: true }))?.cell;
    expect(place).toBeDefined();

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    const sent = cellJobs();
    expect(sent.every((j) => j.cell_id === place?.cell_id && j.shard === place?.shard)).toBe(true);
    const slots = sent.map((j) => j.slot_ms);
    expect(counts.cell_slots).toBe(slots.length);
    // Every 15 s slot before the window's end (60 s + lookahead), each delayed to its own time.
    expect(slots.length).toBeGreaterThanOrEqual(Math.floor((60_000 + LOOKAHEAD_MS) / 15_000));
    expect(slots.slice(1).map((s, i) => s - (slots[i] ?? 0))).toEqual(slots.slice(1).map(() => 15_000));
    expect(sent.map((j) => j.delaySeconds)).toEqual(slots.map((s) => Math.ceil((s - START_MS) / 1000)));
    // Sent through the window's end: the next minute starts after the last slot sent.
    expect(await readLease(h.table, place?.shard ?? -1)).toBe(isoTime(START_MS + 60_000 + LOOKAHEAD_MS));
    expect(slots.at(-1) ?? 0).toBeGreaterThan(START_MS + 60_000 + LOOKAHEAD_MS - 15_000);
  });

  it('does not enqueue a disabled check', async () => {
    const [kept, disabled] = await createChecks(2);
    await h.app.checkService.update(h.tenantId, String(disabled), { enabled: false });
    // A disabled pull check leaves its cell, which then has no member to run.
    const pull = await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'http',
      target_url: 'https://example.com/off',
      interval_seconds: 60,
    });
    await h.app.checkService.update(h.tenantId, pull.id, { enabled: false });

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 1, cell_slots: 0 });
    expect(new Set(jobs().map((j) => j.check_id))).toEqual(new Set([kept]));
  });

  it('runs the minute of the scheduled time, even when invoked late', async () => {
    h.clock.set(START_MS + 3 * 60_000 + 20_000);

    const counts = await h.runGenerator(schedulerEvent(START_MS + 3 * 60_000, 2));

    expect(counts.window_start).toBe(isoTime(START_MS + 3 * 60_000));
  });

  it('runs the current minute when invoked without a scheduler payload, and says so', async () => {
    h.clock.set(START_MS + 5 * 60_000 + 42_000);

    const counts = await h.runGenerator({});

    expect(counts.window_start).toBe(isoTime(START_MS + 5 * 60_000));
    expect(h.logs.some((line) => line.includes('without a scheduler payload'))).toBe(true);
  });
});

describe('partial SendMessageBatch failures', () => {
  /** SQS failing the entries whose job is for one of `checkIds` (retryable, or a sender fault). */
  function failFor(checkIds: string[], options: { senderFault?: boolean; times?: number } = {}) {
    let failures = 0;
    h.sqsMock.on(SendMessageBatchCommand).callsFake((input: SendMessageBatchCommandInput) => {
      const entries = input.Entries ?? [];
      const bad = (body: string | undefined) =>
        (options.times === undefined || failures < options.times) && checkIds.includes(jobOf(body).check_id);
      const failing = entries.filter((e) => bad(e.MessageBody));
      if (failing.length > 0) failures += 1;
      const ok = h.accept({ ...input, Entries: entries.filter((e) => !failing.includes(e)) });
      return {
        ...ok,
        Failed: failing.map((e) => ({
          Id: e.Id,
          Code: 'InternalError',
          SenderFault: options.senderFault ?? false,
        })),
      };
    });
  }

  it('retries the failed entries and claims every check once they are accepted', async () => {
    const ids = await createChecks(12);
    failFor(ids.slice(0, 3), { times: 1 });

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 12, claimed: 12, unsent: 0 });
    expect(new Set(jobs().map((j) => j.check_id))).toEqual(new Set(ids));
    // The batches, then one more call carrying only the entries that failed.
    expect(batchSizes()).toHaveLength(Math.ceil(h.sent.length / 10) + 1);
  });

  it('leaves a check unclaimed when its job is never accepted, so the next minute sends it again', async () => {
    const ids = await createChecks(5);
    const [stuck = ''] = ids;
    const before = await nextRunAt(stuck);
    failFor([stuck]);

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 5, claimed: 4, unsent: 1 });
    expect(await nextRunAt(stuck)).toBe(before);
    expect(jobs().some((j) => j.check_id === stuck)).toBe(false);

    h.sqsMock.on(SendMessageBatchCommand).callsFake(h.accept);
    h.clock.set(START_MS + 60_000);
    const next = await h.runGenerator(schedulerEvent(START_MS + 60_000));

    expect(next.claimed).toBeGreaterThanOrEqual(1);
    const resent = jobs().filter((j) => j.check_id === stuck);
    expect(resent[0]?.slot_ms).toBe(Date.parse(String(before)));
    expect(resent[0]?.delaySeconds).toBe(0);
  });

  it('does not retry a sender fault and does not claim that check', async () => {
    const ids = await createChecks(3);
    failFor([String(ids[1])], { senderFault: true });

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 3, claimed: 2, unsent: 1 });
    expect(h.sqsMock.commandCalls(SendMessageBatchCommand)).toHaveLength(1);
  });

  it('claims nothing when SQS is down, and reports every check unsent', async () => {
    await createChecks(4);
    h.sqsMock.on(SendMessageBatchCommand).rejects(new Error('service unavailable'));

    const counts = await h.runGenerator(schedulerEvent(START_MS));

    expect(counts).toMatchObject({ due: 4, enqueued: 0, claimed: 0, unsent: 4 });
  });
});

describe('overlapping generators', () => {
  it('both enqueue, but only one claims; the other counts the claim as already taken', async () => {
    const [id] = await createChecks(1);
    const other = createGenerator({
      table: h.table,
      queue: h.probeQueue,
      clock: h.clock,
      dueShards: 1,
      logger: silentLogger,
    });
    let inner: Awaited<ReturnType<typeof other.run>> | undefined;
    let started = false;
    h.sqsMock.on(SendMessageBatchCommand).callsFake(async (input: SendMessageBatchCommandInput) => {
      // The second run reads, sends and claims while the first is between its send and its claim.
      if (!started) {
        started = true;
        inner = await other.run(START_MS);
      }
      return h.accept(input);
    });

    const outer = await h.runGenerator(schedulerEvent(START_MS));

    expect(inner).toMatchObject({ due: 1, claimed: 1 });
    expect(outer).toMatchObject({ due: 1, claimed: 0, already_claimed: 1 });
    const first = jobs().filter((j) => j.slot_ms === jobs()[0]?.slot_ms);
    expect(first).toHaveLength(2);
    expect(first.every((j) => j.check_id === id)).toBe(true);
  });
});

describe('a failing shard', () => {
  it('does not stop the other shards, and the run reports the failure', async () => {
    const ids = await createChecks(6);
    const failing: Table = {
      ...h.table,
      query: (input) =>
        // Shard 1's partitions: its sub-keys (`DUE#1#<nn>`) and its key of earlier releases.
        /^DUE#1(#|$)/.test(input.pk) ? Promise.reject(new Error('throttled')) : h.table.query(input),
    };
    const generator = createGenerator({
      table: failing,
      queue: h.probeQueue,
      clock: h.clock,
      dueShards: 2,
      logger: silentLogger,
    });

    const error = await generator.run(START_MS).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(GeneratorRunError);
    // Every check was written to shard 0 of 1; shard 0 still ran.
    expect(error instanceof GeneratorRunError ? error.counts : undefined).toMatchObject({
      failed_shards: 1,
      due: ids.length,
      claimed: ids.length,
    });
  });
});
