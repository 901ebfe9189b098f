import { randomUUID } from 'node:crypto';
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCellRunner } from '../../lib/checks/cell-runner.ts';
import type { ProbeJob } from '../../lib/checks/probe-job.ts';
import { createWorkerHandler } from '../../lib/cloud/worker.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import { checkPartition } from '../../lib/store/partitions.ts';
import { RESULT_SK_PREFIX } from '../support/stored-keys.ts';
import {
  type CloudHarness,
  createEntity,
  lambdaContext,
  probeMessageBody,
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

/** Creates an entity and `n` http checks on it against the loopback server. */
async function httpChecks(n = 1): Promise<string[]> {
  const entityId = await createEntity(h);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const check = await h.app.checkService.create(h.tenantId, {
      entity_id: entityId,
      check_type: 'http',
      target_url: server.url,
    });
    ids.push(check.id);
  }
  return ids;
}

const httpCheck = async () => String((await httpChecks(1))[0]);

const job = (checkId: string, slotMs = START_MS + 5_000): ProbeJob => ({
  tenant_id: h.tenantId,
  check_id: checkId,
  kind: 'probe',
  slot_ms: slotMs,
});

const message = (body: unknown) => ({
  messageId: randomUUID(),
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** The VisibilityTimeout of every ChangeMessageVisibility call so far. */
const visibilityChanges = () =>
  h.sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input.VisibilityTimeout);

async function results(checkId: string) {
  const page = await h.table.query({
    pk: checkPartition(checkId),
    sk: { op: 'beginsWith', prefix: RESULT_SK_PREFIX },
    consistent: true,
  });
  return page.items;
}

describe('the worker handler (private targets allowed)', () => {
  it('runs every job of the batch and reports no failures', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const id = await httpCheck();
    const jobs = [0, 1, 2].map((i) => message(probeMessageBody(job(id, START_MS + i * 60_000))));

    const response = await h.runWorker(sqsEvent(jobs));

    expect(response).toEqual({ batchItemFailures: [] });
    expect(await results(id)).toHaveLength(3);
    expect((await h.app.checks.get(h.tenantId, id))?.state).toBe('up');
  });

  it('reports a malformed message as a failure and still runs the rest of the batch', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const id = await httpCheck();
    const notJson = message('{not json');
    const notAJob = message({ id: 'probe:x', body: { check_id: id, kind: 'probe' } });
    const good = message(probeMessageBody(job(id)));

    const response = await h.runWorker(sqsEvent([notJson, good, notAJob]));

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
    const [id = '', broken = ''] = await httpChecks(2);
    const handler = createWorkerHandler({
      queue: h.probeQueue,
      logger: silentLogger,
      cells: createCellRunner({
        table: h.table,
        prober: h.app.jobRunner.prober,
        tenants: h.app.tenants,
        clock: systemClock,
      }),
      jobRunner: {
        ...h.app.jobRunner,
        checks: {
          ...h.app.checks,
          run: (tenantId, checkId) =>
            checkId === broken
              ? Promise.reject(new Error('ProvisionedThroughputExceededException'))
              : h.app.checks.run(tenantId, checkId),
        },
      },
    });
    const ok = message(probeMessageBody(job(id)));
    const failing = message(probeMessageBody(job(broken)));

    const event = sqsEvent([ok, { ...failing, receives: 3 }]);
    const response = await handler(event, lambdaContext('worker'));

    expect(response.batchItemFailures).toEqual([{ itemIdentifier: failing.messageId }]);
    // Its third attempt failed: it comes back after 4 s.
    expect(h.sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, ReceiptHandle: event.Records[1]?.receiptHandle, VisibilityTimeout: 4 },
    ]);
    expect(await results(id)).toHaveLength(1);
  });

  it('treats a deleted check and a redelivered slot as done', async () => {
    h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
    const id = await httpCheck();
    const first = message(probeMessageBody(job(id)));
    await h.runWorker(sqsEvent([first]));
    h.clock.advance(600_000);

    const response = await h.runWorker(
      sqsEvent([{ ...first, receives: 2 }, message(probeMessageBody(job('chk_01JZZZZZZZZZZZZZZZZZZZZZZZ')))]),
    );

    expect(response.batchItemFailures).toEqual([]);
    expect(await results(id)).toHaveLength(1);
    expect(visibilityChanges()).toEqual([]);
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

    const response = await h.runWorker(sqsEvent([message(probeMessageBody(job(id)))]));

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
