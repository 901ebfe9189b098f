import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobEnvelopeSchema } from '../../lib/cloud/queues/sqs-job-queue.ts';
import { type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';
import { entityWithPushCheck } from '../support/push-fixtures.ts';

/**
 * Actions through the cloud runtime's Lambda handlers over DynamoDB Local: a pushed result (api
 * handler) moves an entity -> the stream handler enqueues a state_change job on the action queue
 * (fauxqs, a real SQS engine in this process) -> the action worker handler, polled like its
 * event-source mapping, fans it out and runs the action against a
 * receiver on 127.0.0.1 (let through by VIGIL_EGRESS_ALLOW). Schedule actions go through the
 * generator handler; manual runs and pipeline reports through the api handler.
 */

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let h: LambdaHarness;
let server: Server;
let origin: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('pipeline started');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await startLambdaHarness({
    env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_PUBLIC_URL: 'https://vigil.example.com' },
  });
  expect(
    (await h.request('POST', '/v1/blueprints', { key: h.adminKey, body: { slug: 'svc', name: 'Service' } }))
      .status,
  ).toBe(201);
}, 60_000);

afterAll(async () => {
  await h?.close();
  server?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

async function call(method: string, path: string, body?: unknown, key = h.adminKey) {
  const res = await h.request(method, path, { key, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** An entity with a push check that goes down at its first failure. */
const monitored = (slug: string, name: string) => entityWithPushCheck(call, { slug, name });

const push = (checkId: string, success: boolean) =>
  call('POST', `/v1/checks/${checkId}/results`, {
    success,
    latency_ms: 5,
    ...(success ? {} : { error_message: 'connection refused' }),
  });

const requestsTo = (prefix: string) => seen.filter((r) => r.path.startsWith(prefix));
const executionsOf = async (actionId: string) =>
  (await call('GET', `/v1/actions/${actionId}/executions`)).executions as Record<string, unknown>[];

/** Action jobs the action queue accepted so far, with their ids, of one kind. */
function sentActionJobs(kind: string) {
  return h.actionSqs
    .sentBodies()
    .map((body) => ({ body, envelope: jobEnvelopeSchema.parse(JSON.parse(body)) }))
    .filter(({ envelope }) => (envelope.body as { kind: string }).kind === kind);
}

describe('actions through the Lambda handlers', () => {
  it('fires a state_change action once when a pushed failure moves its entity down, with the substituted URL, body and secret header', async () => {
    const { entityId, checkId } = await monitored('payments', 'a "quoted" name');
    const action = await call('POST', '/v1/actions', {
      name: 'restart',
      url: `${origin}/restart/{{entity_id}}?to={{to_state}}`,
      headers: { 'X-Secret': 'restart-s3cret', 'Content-Type': 'application/json' },
      body_template:
        '{"entity":"{{entity_name}}","from":"{{from_state}}","to":"{{to_state}}","transition":"{{transition_id}}"}',
      trigger_type: 'state_change',
      check_id: checkId,
      trigger_to_state: 'down',
    });
    await push(checkId, true);
    await h.drainChanges();
    expect(requestsTo('/restart/')).toEqual([]);

    await push(checkId, false);
    await h.drainChanges();

    const [request] = requestsTo('/restart/');
    expect(requestsTo('/restart/')).toHaveLength(1);
    const [transition] = (await call('GET', '/v1/status/transitions')).transitions;
    expect(request).toMatchObject({ method: 'POST', path: `/restart/${entityId}?to=down` });
    expect(request?.headers['x-secret']).toBe('restart-s3cret');
    expect(JSON.parse(String(request?.body))).toEqual({
      entity: 'a "quoted" name',
      from: 'up',
      to: 'down',
      transition: transition.id,
    });
    const executions = await executionsOf(action.id);
    expect(executions).toHaveLength(1);
    expect(executions[0]).toMatchObject({
      trigger: 'state_change',
      dispatch_status: 'success',
      status_code: 200,
      response_snippet: 'pipeline started',
      transition_id: transition.id,
    });
    const listed = (await call('GET', '/v1/actions')) as {
      id: string;
      headers: Record<string, string>;
    }[];
    expect(listed.find((a) => a.id === action.id)?.headers).toEqual({
      'X-Secret': '********',
      'Content-Type': '********',
    });

    // The recovery is not a `down` transition: nothing more fires.
    await push(checkId, true);
    await h.drainChanges();
    expect(requestsTo('/restart/')).toHaveLength(1);
    expect(await executionsOf(action.id)).toHaveLength(1);
  });

  it('sends nothing twice when SQS delivers the state_change and run messages again', async () => {
    const { checkId } = await monitored('ledger', 'ledger');
    const action = await call('POST', '/v1/actions', {
      name: 'ticket',
      url: `${origin}/ticket/{{transition_id}}`,
      trigger_type: 'state_change',
      check_id: checkId,
    });
    await push(checkId, false);
    await h.drainChanges();
    expect(requestsTo('/ticket/')).toHaveLength(1);
    const [execution] = await executionsOf(action.id);
    const duplicates = [
      ...sentActionJobs('state_change').filter(
        ({ envelope }) => (envelope.body as { event: { check_id: string } }).event.check_id === checkId,
      ),
      ...sentActionJobs('run').filter(
        ({ envelope }) => (envelope.body as { execution_id: string }).execution_id === execution?.id,
      ),
    ];
    expect(duplicates.map(({ envelope }) => (envelope.body as { kind: string }).kind).sort()).toEqual([
      'run',
      'state_change',
    ]);

    // At-least-once delivery: the same messages arrive again.
    await h.sqs.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: h.actionSqs.url,
        Entries: duplicates.map(({ body }, i) => ({ Id: `dup${i}`, MessageBody: body })),
      }),
    );
    await h.runActionJobs();

    // Only the executions' deadline jobs (an hour away) are left.
    expect(h.actionSqs.size()).toBe(sentActionJobs('deadline').length);
    expect(h.actionSqs.deadLetterBodies()).toEqual([]);
    expect(requestsTo('/ticket/')).toHaveLength(1);
    expect(await executionsOf(action.id)).toEqual([execution]);
  });

  it('runs a schedule action at its slot through the generator, once per slot, and once after a long gap', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const action = await call('POST', '/v1/actions', {
      name: 'nightly',
      url: `${origin}/scheduled/{{action_id}}`,
      method: 'GET',
      trigger_type: 'schedule',
      interval_seconds: 60,
    });
    const slotMs = Date.parse(action.next_run_at);
    const before = requestsTo('/scheduled/').length;

    // The generator's run for the slot's minute claims it and delays its run job to the slot.
    const counts = await h.runGenerator(slotMs);
    expect(counts).toMatchObject({ actions_claimed: 1, actions_enqueued: 1 });
    expect((await h.runGenerator(slotMs)).actions_claimed).toBe(0);
    vi.setSystemTime(slotMs + 1000);
    await h.runActionJobs();

    expect(requestsTo('/scheduled/')).toHaveLength(before + 1);
    expect(requestsTo('/scheduled/').at(-1)).toMatchObject({
      method: 'GET',
      path: `/scheduled/${action.id}`,
    });
    const [execution] = await executionsOf(action.id);
    expect(execution).toMatchObject({ trigger: 'schedule', dispatch_status: 'success' });
    expect(Date.parse((await call('GET', `/v1/actions/${action.id}`)).next_run_at)).toBe(slotMs + 60_000);

    // Ten minutes without a generator run: the next one runs the action once, not ten times.
    vi.setSystemTime(slotMs + 11 * 60_000);
    expect((await h.runGenerator(Date.now())).actions_claimed).toBe(1);
    vi.setSystemTime(Date.now() + 60_000);
    await h.runActionJobs();
    expect(requestsTo('/scheduled/')).toHaveLength(before + 2);
    expect(await executionsOf(action.id)).toHaveLength(2);
  });

  it('runs a manual action through the api handler, and records a metadata address from vars as blocked without sending', async () => {
    const action = await call('POST', '/v1/actions', {
      name: 'deploy',
      url: 'http://{{host}}/deploy/{{action_name}}',
      trigger_type: 'manual',
    });
    const host = new URL(origin).host;

    const run = await call('POST', `/v1/actions/${action.id}/run`, { vars: { host } });
    const blocked = await call('POST', `/v1/actions/${action.id}/run`, { vars: { host: '169.254.169.254' } });

    expect(run).toMatchObject({ trigger: 'manual', dispatch_status: 'success', status_code: 200 });
    expect(requestsTo('/deploy/')).toEqual([expect.objectContaining({ path: '/deploy/deploy' })]);
    expect(blocked).toMatchObject({ trigger: 'manual', dispatch_status: 'blocked', status_code: null });
    expect(blocked.error_message).toEqual(expect.any(String));
    expect((await executionsOf(action.id)).map((e) => e.id).sort()).toEqual([blocked.id, run.id].sort());
  });

  it('fails a pipeline still running at its deadline, waiting through SQS delays of at most 15 minutes', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const action = await call('POST', '/v1/actions', {
      name: 'slow pipeline',
      url: `${origin}/slow`,
      trigger_type: 'manual',
      pipeline_timeout_seconds: 1800,
    });
    const run = await call('POST', `/v1/actions/${action.id}/run`, {});
    expect(requestsTo('/slow')).toHaveLength(1);
    await call('POST', `/v1/actions/executions/${run.id}/events`, { status: 'running' });
    const statusOf = async () =>
      (await executionsOf(action.id)).find((e) => e.id === run.id)?.pipeline_status;

    // The first hop lands at 15 minutes and waits another; nothing is decided before the deadline.
    vi.setSystemTime(Date.now() + 15 * 60_000 + 1000);
    await h.runActionJobs();
    expect(await statusOf()).toBe('running');
    vi.setSystemTime(Date.now() + 15 * 60_000);
    await h.runActionJobs();

    expect(await statusOf()).toBe('failed');
    const logs = await call('GET', `/v1/actions/executions/${run.id}/logs`);
    expect(logs.at(-1).line).toMatch(/1800/);
    expect(h.actionSqs.deadLetterBodies()).toEqual([]);
  });

  it('takes a pipeline’s status and log lines with the callback token through the api handler, for that execution only', async () => {
    const action = await call('POST', '/v1/actions', {
      name: 'pipeline',
      url: `${origin}/pipeline`,
      body_template: '{"callback":"{{callback_url}}","token":"{{callback_token}}"}',
      trigger_type: 'manual',
    });
    const first = await call('POST', `/v1/actions/${action.id}/run`, {});
    const second = await call('POST', `/v1/actions/${action.id}/run`, {});
    const [firstSent, secondSent] = requestsTo('/pipeline').map((r) => JSON.parse(r.body));
    expect(firstSent.callback).toBe(`https://vigil.example.com/v1/actions/executions/${first.id}/events`);
    const events = `/v1/actions/executions/${first.id}/events`;

    await call('POST', events, { status: 'running' }, firstSent.token);
    await call('POST', events, { logs: ['checkout', 'build', 'deploy'] }, firstSent.token);
    const done = await call('POST', events, { status: 'succeeded' }, firstSent.token);
    const foreign = await h.request('POST', events, { key: secondSent.token, body: { status: 'failed' } });

    expect(done).toMatchObject({ id: first.id, pipeline_status: 'succeeded' });
    expect(foreign.status).toBe(401);
    expect(second.id).not.toBe(first.id);
    const logs = await call('GET', `/v1/actions/executions/${first.id}/logs`);
    expect(logs.map((l: { line: string }) => l.line)).toEqual(['checkout', 'build', 'deploy']);
    expect((await executionsOf(action.id)).find((e) => e.id === first.id)).toMatchObject({
      pipeline_status: 'succeeded',
    });
  });
});
