import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CellRunner, createCellRunner } from '../../lib/checks/runner/cell-runner.ts';
import { createWorkerHandler } from '../../lib/cloud/workers/worker.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { apiResults, cellJobFor, deadmanJob, type WorkerJob, workerMessageBody } from './cell-support.ts';
import {
  type CloudHarness,
  createEntity,
  lambdaContext,
  QUEUE_URL,
  START_MS,
  sqsEvent,
  startCloudHarness,
  startStatusServer,
} from './support.ts';

let server: Awaited<ReturnType<typeof startStatusServer>>;
let h: CloudHarness;

beforeAll(async () => {
  server = await startStatusServer(200);
});
afterAll(() => server.close());
afterEach(() => h.close());

/**
 * Creates an entity and one check per entry on it: an http pull check of that interval against
 * the loopback server (a member of the cell of its interval), or a push check.
 */
async function checks(...kinds: (number | 'push')[]): Promise<string[]> {
  const entityId = await createEntity(h);
  const ids: string[] = [];
  for (const kind of kinds) {
    const check = await h.app.checkService.create(
      h.tenantId,
      kind === 'push'
        ? { entity_id: entityId, check_type: 'push', interval_seconds: 60 }
        : { entity_id: entityId, check_type: 'http', target_url: server.url, interval_seconds: kind },
    );
    ids.push(check.id);
  }
  return ids;
}

const httpCheck = async () => String((await checks(60))[0]);

/** The job of the `nth` slot of the check's cell (after the harness start). */
const slotJob = (checkId: string, nth = 0) => cellJobFor(h, checkId, nth, START_MS);

const message = (body: unknown) => ({
  messageId: randomUUID(),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const jobMessage = (job: WorkerJob) => message(workerMessageBody(job));

/** The VisibilityTimeout of every ChangeMessageVisibility call so far. */
const visibilityChanges = () =>
  h.sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input.VisibilityTimeout);

const results = (checkId: string) => apiResults(h, checkId);

/** The outcome of every job the worker ran so far, from its debug log lines. */
const jobStatuses = (): string[] =>
  h.logs.flatMap((line) => {
    const entry = JSON.parse(line) as { msg?: string; status?: string };
    return entry.msg?.endsWith('job done') && entry.status ? [entry.status] : [];
  });

describe('the worker handler (private targets allowed)', () => {
  it("runs every job of the batch (a cell's slots and a push check's deadman job) and reports no failures", async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const [id = '', push = ''] = await checks(60, 'push');
    const slots = await Promise.all([0, 1, 2].map((nth) => slotJob(id, nth)));
    const jobs = [...slots, deadmanJob(h, push, START_MS + 120_000)].map(jobMessage);

    const response = await h.runWorker(sqsEvent(jobs));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await results(id)).toHaveLength(3);
    expect((await h.api('GET', `/v1/checks/${id}`)).body.state).toBe('up');
    expect(await results(push)).toEqual([expect.objectContaining({ success: false, synthetic: true })]);
  });

  it('reports a malformed message as a failure and still runs the rest of the batch', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const id = await httpCheck();
    const good = await slotJob(id);
    const notJson = message('{not json');
    const notAJob = message({ id: 'cell:x', body: { cell_id: good.cell_id, kind: 'cell' } });

    const response = await h.runWorker(sqsEvent([notJson, jobMessage(good), notAJob]));

    expect(response.batchItemFailures).toEqual([
      { itemIdentifier: notJson.messageId },
      { itemIdentifier: notAJob.messageId },
    ]);
    expect(await results(id)).toHaveLength(1);
    expect(h.logs.filter((line) => line.includes('MalformedJobError'))).toHaveLength(2);
    // Both come back after the first retry delay (1 s), not the queue's visibility timeout.
    expect(visibilityChanges()).toEqual([1, 1]);
  });

  it('reports the message whose job threw, and only that one', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    // Two intervals: two cells, so one cell's job can fail while the other's runs.
    const [id = '', broken = ''] = await checks(60, 120);
    const okJob = await slotJob(id);
    const brokenJob = await slotJob(broken);
    expect(brokenJob.cell_id).not.toBe(okJob.cell_id);
    const runner = createCellRunner({
      table: h.table,
      prober: h.app.jobRunner.prober,
      tenants: h.app.tenants,
      clock: systemClock,
    });
    const cells: CellRunner = {
      ...runner,
      run: (job, options) =>
        job.cell_id === brokenJob.cell_id
          ? Promise.reject(new Error('ProvisionedThroughputExceededException'))
          : runner.run(job, options),
    };
    const handler = createWorkerHandler({
      queue: h.probeQueue,
      clock: h.clock,
      logger: silentLogger,
      cells,
      jobRunner: h.app.jobRunner,
    });
    const ok = jobMessage(okJob);
    const failing = jobMessage(brokenJob);

    const event = sqsEvent([ok, { ...failing, receives: 3 }]);
    const response = await handler(event, lambdaContext('worker'));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: failing.messageId }]);
    // Its third attempt failed: it comes back after 4 s.
    expect(h.sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, ReceiptHandle: event.Records[1]?.receiptHandle, VisibilityTimeout: 4 },
    ]);
    expect(await results(id)).toHaveLength(1);
    expect(await results(broken)).toHaveLength(0);
  });

  it('treats a deleted check, a gone cell and a redelivered slot as done', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const [id = '', deleted = '', deletedPush = ''] = await checks(60, 300, 'push');
    const first = jobMessage(await slotJob(id));
    // The deleted check was its cell's only member: the cell stays, empty.
    const emptied = jobMessage(await slotJob(deleted));
    await h.app.checkService.remove(h.tenantId, deleted);
    await h.app.checkService.remove(h.tenantId, deletedPush);
    await h.runWorker(sqsEvent([first]));
    h.clock.advance(600_000);
    const before = jobStatuses().length;

    const response = await h.runWorker(
      sqsEvent([
        { ...first, receives: 2 },
        emptied,
        jobMessage({ ...(await slotJob(id)), cell_id: 'cel_01JZZZZZZZZZZZZZZZZZZZZZZZ' }),
        jobMessage(deadmanJob(h, deletedPush, START_MS + 120_000)),
      ]),
    );

    expect(response.batchItemFailures).toEqual([]);
    expect(await results(id)).toHaveLength(1);
    expect(visibilityChanges()).toEqual([]);
    // Each was run and found done: the redelivered slot a duplicate, the other three gone.
    expect(jobStatuses().slice(before).sort()).toEqual(['duplicate', 'gone', 'gone', 'gone']);
  });

  it('rejects an event that is not an SQS batch (the whole batch comes back)', async () => {
    h = await startCloudHarness();

    await expect(h.runWorker({ Records: [{ body: '{}' }] })).rejects.toThrow();
  });
});

describe('the worker handler with the cloud default (private targets denied)', () => {
  it('records a failed result for a loopback target without connecting to it', async () => {
    h = await startCloudHarness();
    const id = await httpCheck();
    const hits = server.hits();

    const response = await h.runWorker(sqsEvent([jobMessage(await slotJob(id))]));

    expect(response.batchItemFailures).toEqual([]);
    const [result] = await results(id);
    expect(result).toMatchObject({
      success: false,
      status_code: 0,
      error_message: expect.stringContaining('destination 127.0.0.1 is a loopback address'),
    });
    expect(server.hits()).toBe(hits);
  });
});
