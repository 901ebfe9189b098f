import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createStreamHandler } from '../../functions/stream.ts';
import { cellResultsPage } from '../../lib/checks/cells/cell-result-items.ts';
import { createPowertoolsLogger } from '../../lib/cloud/edge/lambda-edge.ts';
import { STREAM_ENTITIES } from '../../lib/events/consumers.ts';
import { createStreamReader } from '../support/dynamodb-stream.ts';
import { type FauxqsEngine, startFauxqsEngine } from '../support/fauxqs.ts';
import { workerJobOf } from './cell-support.ts';
import {
  type CloudHarness,
  createEntity,
  lambdaContext,
  schedulerEvent,
  startCloudHarness,
  startStatusServer,
} from './support.ts';

/**
 * The pull-check path of the cloud runtime, driven through its Lambda handlers: the api handler
 * creates the check (it joins a cell of its tenant and interval), the generator handler
 * (EventBridge Scheduler payload, at every minute boundary) enqueues one job per cell slot on the
 * probe queue (fauxqs, a real SQS engine; DelaySeconds to the slot), and the worker handler
 * receives them through the event-source poller as they become visible. The app's fake clock and
 * the fake Date fauxqs keeps time with move together (the harness's clock), a second at a time.
 */
describe('a pull check in the cloud runtime', () => {
  let engine: FauxqsEngine;
  let h: CloudHarness;
  let server: Awaited<ReturnType<typeof startStatusServer>>;
  let checkId: string;
  /** Each job the worker ran, with the time it ran at. */
  const delivered: { body: string; atMs: number }[] = [];

  const setTime = (ms: number) => h.clock.set(ms);
  const source = () => {
    if (!h.probeSource || !h.engineQueue) throw new Error('the harness has no SQS engine');
    return { poller: h.probeSource, queue: h.engineQueue };
  };

  /** One second passes; EventBridge Scheduler fires the generator at each minute boundary. */
  async function tick() {
    setTime(h.clock.now() + 1000);
    if (h.clock.now() % 60_000 === 0) await h.runGenerator(schedulerEvent(h.clock.now()));
  }

  /** Lets time pass until the worker ran the next job (a slot of the check's cell). */
  async function probeOnce() {
    for (let second = 0; second < 300; second += 1) {
      const invocation = await source().poller.pollOnce();
      if (invocation) {
        expect(invocation.failed).toEqual([]);
        for (const r of invocation.event.Records) delivered.push({ body: r.body, atMs: h.clock.now() });
        const check = await h.api('GET', `/v1/checks/${checkId}`);
        return { state: check.body.state, failures: check.body.consecutive_failures };
      }
      await tick();
    }
    throw new Error('no probe job became visible in 5 minutes');
  }

  const results = async () => (await h.api('GET', `/v1/checks/${checkId}/results`)).body.results;

  beforeAll(async () => {
    server = await startStatusServer(200);
    engine = await startFauxqsEngine();
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' }, engine });
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
    await h?.close();
    await engine?.stop();
    await server?.close();
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
    // Not visible before its slot, and received within the second it became visible.
    for (const [i, m] of delivered.entries()) {
      const slot = slots[i] ?? 0;
      expect(m.atMs).toBeGreaterThanOrEqual(slot);
      expect(m.atMs).toBeLessThan(slot + 2000);
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
    setTime(h.clock.now() + 30_000);
    const { poller, queue } = source();

    await engine.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: [{ Id: 'again', MessageBody: last.body }],
      }),
    );
    const again = await poller.pollOnce();

    expect(again?.event.Records.map((r) => r.body)).toEqual([last.body]);
    expect(again?.failed).toEqual([]);
    expect(await results()).toHaveLength(5);
    const after = await h.api('GET', `/v1/checks/${checkId}`);
    expect(after.body.last_result_at).toBe(before.body.last_result_at);
  });

  it('does not enqueue the check once it is disabled, and drops jobs already queued', async () => {
    const { poller, queue } = source();
    for (let second = 0; engine.size(queue.name) === 0 && second < 180; second += 1) await tick();
    const [queued] = engine.server.inspectQueue(queue.name)?.messages.delayed ?? [];
    expect(queued).toBeDefined();
    const job = workerJobOf(queued?.body);
    if (job.kind !== 'cell') throw new Error(`a ${job.kind} job was queued for a pull check`);
    const cellId = job.cell_id;
    /** The slots the check's cell stored (a slot holds the results of all its members). */
    const storedSlots = async () => (await cellResultsPage(h.table, cellId, { limit: 100 })).slots.length;
    expect(await storedSlots()).toBe(5);
    const disabled = await h.api('PUT', `/v1/checks/${checkId}`, { enabled: false });
    expect(disabled.status).toBe(200);
    const sentBefore = engine.sentBodies(queue.name).length;
    const hitsBefore = server.hits();
    const invocationsBefore = poller.invocations.length;

    for (let second = 0; second < 180; second += 1) {
      await tick();
      await poller.runVisible();
    }

    // The check left its cell, the only member: the generator sends the empty cell nothing.
    expect(engine.sentBodies(queue.name).length).toBe(sentBefore);
    const ran = poller.invocations.slice(invocationsBefore);
    expect(ran.length).toBeGreaterThan(0);
    expect(ran.flatMap((i) => i.failed)).toEqual([]);
    expect(engine.size(queue.name)).toBe(0);
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
