import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStreamHandler } from '../../functions/stream.ts';
import { STREAM_ENTITIES } from '../../lib/app.ts';
import { cellResultsPage } from '../../lib/checks/cell-result-items.ts';
import { createPowertoolsLogger } from '../../lib/cloud/lambda-edge.ts';
import { createStreamReader } from '../support/dynamodb-stream.ts';
import { workerJobOf } from './cell-support.ts';
import {
  type CloudHarness,
  createEntity,
  lambdaContext,
  type SentMessage,
  schedulerEvent,
  sqsEvent,
  startCloudHarness,
  startStatusServer,
} from './support.ts';

/**
 * The pull-check path of the cloud runtime, driven through its Lambda handlers: the api handler
 * creates the check (it joins a cell of its tenant and interval), the generator handler
 * (EventBridge Scheduler payload) enqueues one job per cell slot on a mocked SQS, and the captured
 * messages are delivered to the worker handler as SQS events, each when its DelaySeconds has
 * passed on the fake clock.
 */
describe('a pull check in the cloud runtime', () => {
  let h: CloudHarness;
  let server: Awaited<ReturnType<typeof startStatusServer>>;
  let checkId: string;
  /** Sent but not yet delivered, in the order they become visible. */
  const pending: SentMessage[] = [];
  let seen = 0;
  const delivered: SentMessage[] = [];

  const visibleAt = (m: SentMessage) => m.sentAtMs + m.delaySeconds * 1000;

  /** EventBridge Scheduler fires the generator at the next minute boundary. */
  async function nextMinute() {
    h.clock.set(Math.floor(h.clock.now() / 60_000) * 60_000 + 60_000);
    await h.runGenerator(schedulerEvent(h.clock.now()));
    pending.push(...h.sent.slice(seen));
    seen = h.sent.length;
    pending.sort((a, b) => visibleAt(a) - visibleAt(b));
  }

  /** Delivers the next job (a slot of the check's cell) to the worker when SQS would make it visible. */
  async function probeOnce() {
    for (let minute = 0; pending.length === 0 && minute < 5; minute += 1) await nextMinute();
    const message = pending.shift();
    if (!message) throw new Error('no probe job was enqueued');
    h.clock.set(Math.max(h.clock.now(), visibleAt(message)));
    const response = await h.runWorker(sqsEvent([message]));
    expect(response.batchItemFailures).toEqual([]);
    delivered.push(message);
    const check = await h.api('GET', `/v1/checks/${checkId}`);
    return { state: check.body.state, failures: check.body.consecutive_failures };
  }

  const results = async () => (await h.api('GET', `/v1/checks/${checkId}/results`)).body.results;

  beforeAll(async () => {
    server = await startStatusServer(200);
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const entityId = await createEntity(h);
    const created = await h.api('POST', '/v1/checks', {
      entity_id: entityId,
      check_type: 'http',
      target_url: server.url,
      interval_seconds: 60,
      failure_threshold: 3,
    });
    expect(created.status).toBe(201);
    checkId = created.body.id;
  });

  afterAll(async () => {
    await h.close();
    await server.close();
  });

  it('is up after its first successful probe', async () => {
    expect(await probeOnce()).toEqual({ state: 'up', failures: 0 });
    expect(server.hits()).toBe(1);
  });

  it('stays up through two failures and goes down exactly at the third', async () => {
    server.set(503);
    expect(await probeOnce()).toEqual({ state: 'up', failures: 1 });
    expect(await probeOnce()).toEqual({ state: 'up', failures: 2 });
    expect(await probeOnce()).toEqual({ state: 'down', failures: 3 });
    const [latest] = await results();
    expect(latest).toMatchObject({ success: false, status_code: 503 });
  });

  it('comes back up on the next success', async () => {
    server.set(200);
    expect(await probeOnce()).toEqual({ state: 'up', failures: 0 });
  });

  it("ran each probe at its cell's own slot, one interval apart, each job delayed to it", async () => {
    const jobs = delivered.map((m) => workerJobOf(m.body));
    expect(jobs.map((j) => j.kind)).toEqual(['cell', 'cell', 'cell', 'cell', 'cell']);
    expect(new Set(jobs.map((j) => (j.kind === 'cell' ? j.cell_id : j.check_id))).size).toBe(1);
    const slots = jobs.map((j) => j.slot_ms);
    expect(slots.slice(1).map((s, i) => s - (slots[i] ?? 0))).toEqual([60_000, 60_000, 60_000, 60_000]);
    for (const [i, m] of delivered.entries()) {
      const slot = slots[i] ?? 0;
      expect(m.delaySeconds).toBe(Math.max(0, Math.ceil((slot - m.sentAtMs) / 1000)));
    }
    const shown = await results();
    expect(shown).toHaveLength(5);
    // Each result is its slot's, newest first (checked_at: the probe's start, at or after its slot).
    for (const [i, result] of [...shown].reverse().entries()) {
      expect(Date.parse(result.checked_at)).toBeGreaterThanOrEqual(slots[i] ?? Number.NaN);
      expect(Date.parse(result.checked_at)).toBeLessThan((slots[i] ?? Number.NaN) + 60_000);
    }
  });

  it('shows the changes as transitions: unknown to up, up to down, down to up', async () => {
    const { body } = await h.api('GET', `/v1/checks/${checkId}/transitions`);
    const changes = body.transitions.map((t: { from_state: string; to_state: string }) => [
      t.from_state,
      t.to_state,
    ]);
    expect(changes.reverse()).toEqual([
      ['unknown', 'up'],
      ['up', 'down'],
      ['down', 'up'],
    ]);
  });

  it('does not record a second result when SQS redelivers a message', async () => {
    const last = delivered.at(-1);
    if (!last) throw new Error('nothing delivered');
    const before = await h.api('GET', `/v1/checks/${checkId}`);
    h.clock.advance(30_000);

    const response = await h.runWorker(sqsEvent([{ ...last, receives: 2 }]));

    expect(response.batchItemFailures).toEqual([]);
    expect(await results()).toHaveLength(5);
    const after = await h.api('GET', `/v1/checks/${checkId}`);
    expect(after.body.last_result_at).toBe(before.body.last_result_at);
  });

  it('does not enqueue the check once it is disabled, and drops jobs already queued', async () => {
    for (let minute = 0; pending.length === 0 && minute < 3; minute += 1) await nextMinute();
    const queued = pending.splice(0);
    expect(queued.length).toBeGreaterThan(0);
    const job = workerJobOf(queued[0]?.body);
    if (job.kind !== 'cell') throw new Error(`a ${job.kind} job was queued for a pull check`);
    const cellId = job.cell_id;
    /** The slots the check's cell stored (a slot holds the results of all its members). */
    const storedSlots = async () => (await cellResultsPage(h.table, cellId, { limit: 100 })).slots.length;
    expect(await storedSlots()).toBe(5);
    const disabled = await h.api('PUT', `/v1/checks/${checkId}`, { enabled: false });
    expect(disabled.status).toBe(200);
    const sentBefore = h.sent.length;
    const hitsBefore = server.hits();

    for (let i = 0; i < 3; i += 1) await nextMinute();
    const response = await h.runWorker(sqsEvent(queued));

    // The check left its cell, the only member: the generator sends the empty cell nothing.
    expect(h.sent.length).toBe(sentBefore);
    expect(response.batchItemFailures).toEqual([]);
    expect(server.hits()).toBe(hitsBefore);
    expect(await storedSlots()).toBe(5);
    // Out of its cell, the check still lists the results it had there.
    expect(await results()).toHaveLength(5);
  });

  it('puts transitions on the change feed the stream Lambda receives, and results are filtered out', async () => {
    const reader = createStreamReader(h.dynamodb, inject('dynamodbEndpoint'), h.tableName);
    try {
      const records = await reader.readNew();
      const entityOf = (r: (typeof records)[number]) =>
        r.dynamodb?.NewImage?.entity?.S ?? r.dynamodb?.OldImage?.entity?.S ?? '';
      // The CDK event source's filter (infra/change-feed.ts): new or old image of a STREAM_ENTITIES type.
      const kept = records.filter((r) => STREAM_ENTITIES.includes(entityOf(r)));
      // The cell's slots and state are on the table's stream, but not what the Lambda receives.
      expect(records.some((r) => entityOf(r) === 'cell_results')).toBe(true);
      expect(records.some((r) => entityOf(r) === 'cell_state')).toBe(true);
      expect(kept.filter((r) => entityOf(r).startsWith('cell'))).toEqual([]);
      expect(kept.filter((r) => entityOf(r) === 'transition').length).toBeGreaterThanOrEqual(3);
      await createStreamHandler({
        consumers: h.app.consumers,
        powertools: createPowertoolsLogger({ level: 'silent' }),
      })({ Records: kept }, lambdaContext('stream'));
    } finally {
      reader.close();
    }
  });
});
