import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createActionWorkerLambda } from '../../functions/actions.ts';
import { composeActionFunction } from '../../lib/cloud/action-composition.ts';
import { createCloudBase } from '../../lib/cloud/cloud-base.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { createTestTable, type TestTable } from '../support/dynamodb-local.ts';
import { lambdaContext, QUEUE_URL, START_MS, sqsEvent } from './support.ts';

/** The EMF documents among what was written to stdout. */
function emfLines(writes: unknown[][]): Record<string, unknown>[] {
  return writes
    .map((args) => String(args[0]))
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('function metrics (Powertools EMF)', () => {
  let testTable: TestTable;

  beforeAll(async () => {
    testTable = await createTestTable(inject('dynamodbEndpoint'));
  });
  afterAll(async () => {
    await testTable.drop();
  });

  it('writes the action runs and the queue lag of a batch, namespace Vigil, service actions', async () => {
    const config = loadConfig('cloud', {
      VIGIL_TABLE_NAME: testTable.tableName,
      VIGIL_ACTION_QUEUE_URL: QUEUE_URL,
      VIGIL_LOG_LEVEL: 'silent',
    });
    const clock = createFakeClock(START_MS + 1500);
    // Powertools Metrics writes its EMF lines to stdout (through a Console of its own).
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const base = createCloudBase(config, { dynamodb: testTable.client, clock });
    const lambda = createActionWorkerLambda(composeActionFunction(base));
    // A run of an action that does not exist: the worker finds nothing to run and is done.
    const run = {
      kind: 'run',
      tenant_id: 'tnt_1',
      action_id: 'act_gone',
      execution_id: 'exe_1',
      trigger: 'schedule',
    };
    const event = sqsEvent([
      { messageId: 'm1', body: JSON.stringify({ id: 'run:exe_1', body: run }), sentAtMs: START_MS },
      {
        messageId: 'm2',
        body: JSON.stringify({ id: 'run:exe_2', body: { ...run, execution_id: 'exe_2' } }),
        sentAtMs: START_MS + 1000,
      },
    ]);

    let written: unknown[][] = [];
    try {
      const response = await lambda(event, lambdaContext('actions'));
      expect(response).toEqual({ batchItemFailures: [] });
    } finally {
      written = [...stdout.mock.calls];
      stdout.mockRestore();
    }

    const [emf, ...more] = emfLines(written);
    expect(more).toEqual([]);
    expect(emf).toMatchObject({ service: 'actions', ActionRuns: 2, QueueLag: 1500 });
    const aws = emf?._aws as
      | { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string; Unit: string }[] }[] }
      | undefined;
    const directive = aws?.CloudWatchMetrics[0];
    expect(directive?.Namespace).toBe('Vigil');
    expect(directive?.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'ActionRuns', Unit: 'Count' },
        { Name: 'QueueLag', Unit: 'Milliseconds' },
      ]),
    );
    base.sqs.destroy();
  });
});
