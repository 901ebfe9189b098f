import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cellPartition } from '../../lib/store/partitions.ts';
import { type LoginApi, PASSWORD, startLoginApi, TOKEN } from '../check-types/support/login-api.ts';
import { apiResults, cellJobFor, workerMessageBody } from './cell-support.ts';
import { type CloudHarness, createEntity, sqsEvent, startCloudHarness } from './support.ts';

/**
 * A multistep check on the cloud path: the worker Lambda runs its cell's slot (DynamoDB Local),
 * logging in to a local API and calling the next step with the extracted token; the stored result
 * carries the steps, and neither it, the stored items nor the logs hold the secret or the token.
 */
let server: LoginApi;
let h: CloudHarness;

beforeAll(async () => {
  server = await startLoginApi();
  h = await startCloudHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

it('runs a multistep check in the worker and stores its steps with the secrets hidden', async () => {
  const entityId = await createEntity(h);
  const created = await h.api('POST', '/v1/checks', {
    entity_id: entityId,
    check_type: 'multistep',
    interval_seconds: 60,
    config: {
      variables: { password: { value: PASSWORD, secret: true } },
      steps: [
        {
          name: 'login',
          method: 'POST',
          url: `${server.origin}/login`,
          body: '{"password": "{{variables.password}}"}',
          extract: { token: { source: 'json_body', path: '$.token' } },
        },
        {
          name: 'echo',
          url: `${server.origin}/echo`,
          headers: { authorization: 'Bearer {{steps.login.token}}', 'x-pass': '{{variables.password}}' },
          assertions: [
            { source: 'json', path: '$.headers.authorization', op: 'eq', value: 'Bearer nothing' },
          ],
        },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const checkId = String(created.body.id);
  const job = await cellJobFor(h, checkId);

  const response = await h.runWorker(sqsEvent([{ messageId: randomUUID(), body: workerMessageBody(job) }]));

  expect(response).toEqual({ batchItemFailures: [] });
  const [result] = await apiResults(h, checkId);
  expect(result).toMatchObject({
    success: false,
    error_message: expect.stringMatching(
      /^step 2 "echo": assertion failed: \$\.headers\.authorization is \*{8}/,
    ),
    details: {
      failed_step: 'echo',
      steps: [
        { name: 'login', outcome: 'passed', status_code: 200 },
        { name: 'echo', outcome: 'failed', status_code: 200 },
      ],
    },
  });
  expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  const stored = JSON.stringify(result);
  expect(stored).toContain('********');
  const raw = JSON.stringify(await h.table.query({ pk: cellPartition(job.cell_id) }));
  for (const text of [stored, raw, h.logs.join('\n')]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(TOKEN);
  }
});
