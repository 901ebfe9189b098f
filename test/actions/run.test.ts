import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionRecord } from '../../lib/actions/items/action-items.ts';
import type { ExecutionRecord } from '../../lib/actions/items/execution-items.ts';
import type { RunRequest } from '../../lib/actions/items/ports.ts';
import { verifyCallbackToken } from '../../lib/actions/runs/callback-token.ts';
import { type ActionRunnerDeps, createActionRunner } from '../../lib/actions/runs/execute.ts';
import type { StateChangeEvent } from '../../lib/domain/states/state-change-event.ts';
import type { Resolve } from '../../lib/egress/egress-guard.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { createLogger } from '../../lib/platform/logger.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { recordingListener, type SeenRequest } from '../support/recording-listener.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';

/**
 * The action runner against real loopback receivers (plain HTTP and HTTPS with a test CA), allowed
 * through the egress allow-list the way VIGIL_EGRESS_ALLOW allows them; private, metadata and
 * rebinding destinations are blocked before anything is sent.
 */

interface Receivers {
  http: string;
  https: string;
  seen: SeenRequest[];
  ca: string;
  close(): Promise<void>;
}

/** /ok echo 200, /status/<n>, /redirect (302 with a body), /big (10 KB), /slow (never answers). */
const handler = (seen: SeenRequest[]): RequestListener =>
  recordingListener(seen, ({ path }, res) => {
    const status = /^\/status\/(\d{3})/.exec(path)?.[1];
    if (status) res.writeHead(Number(status)).end(`answer ${status}`);
    else if (path.startsWith('/redirect'))
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end('moved');
    else if (path.startsWith('/big')) res.end('é'.repeat(5000));
    else if (path.startsWith('/slow')) return;
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('accepted');
  });

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

async function startReceivers(): Promise<Receivers> {
  const tls = createTlsFixtures();
  const seen: SeenRequest[] = [];
  const plain = createHttpServer(handler(seen));
  const secure = createHttpsServer(tls.valid, handler(seen));
  const [p, s] = [await listen(plain), await listen(secure)];
  return {
    http: `http://127.0.0.1:${p}`,
    https: `https://127.0.0.1:${s}`,
    seen,
    ca: tls.caCert,
    close: async () => {
      for (const server of [plain, secure]) {
        server.closeAllConnections();
        server.close();
      }
    },
  };
}

function memoryExecutions() {
  const stored = new Map<string, ExecutionRecord>();
  const leases = new Map<string, number>();
  let puts = 0;
  return {
    stored,
    puts: () => puts,
    get: async (id: string) => stored.get(id),
    putNew: async (record: ExecutionRecord) => {
      puts += 1;
      if (stored.has(record.id)) return false;
      stored.set(record.id, record);
      return true;
    },
    complete: async (id: string, fields: Partial<ExecutionRecord>) => {
      const record = stored.get(id);
      if (record) stored.set(id, { ...record, ...fields });
    },
    interrupt: async (id: string, nowIso: string, message: string) => {
      const record = stored.get(id);
      if (record?.dispatch_status !== 'running') return false;
      stored.set(id, {
        ...record,
        dispatch_status: 'interrupted',
        error_message: message,
        updated_at: nowIso,
      });
      return true;
    },
    leases,
    reserve: async (id: string, nowMs: number, untilMs: number) => {
      const held = leases.get(id);
      if (held !== undefined && held >= nowMs) return false;
      leases.set(id, untilMs);
      return true;
    },
  };
}

const T0 = Date.parse('2026-03-01T12:00:00.000Z');

function action(overrides: Partial<ActionRecord>): ActionRecord {
  return {
    id: newId('act', T0),
    tenant_id: newId('tnt', T0),
    name: 'restart payments',
    url: 'http://127.0.0.1:1/',
    method: 'POST',
    headers: {},
    body_template: '',
    trigger_type: 'manual',
    check_id: null,
    trigger_to_state: null,
    interval_seconds: null,
    timeout_ms: 2000,
    pipeline_timeout_seconds: 3600,
    next_run_at: null,
    created_at: new Date(T0).toISOString(),
    updated_at: new Date(T0).toISOString(),
    version: 1,
    ...overrides,
  };
}

const EVENT: StateChangeEvent = {
  entity_id: 'ent_01J00000000000000000000001',
  entity_name: 'a "quoted" name',
  check_id: 'chk_01J00000000000000000000001',
  tenant_id: 'tnt_x',
  from_state: 'up',
  to_state: 'down',
  transition_id: 'trn_01J00000000000000000000001',
  timestamp: '2026-03-01T11:59:59.000Z',
};

let rx: Receivers;
beforeAll(async () => {
  rx = await startReceivers();
});
afterAll(async () => {
  await rx?.close();
});

function setup(extra: Partial<ActionRunnerDeps> = {}) {
  const executions = memoryExecutions();
  const dispatched: ExecutionRecord[] = [];
  const runner = createActionRunner({
    executions,
    clock: createFakeClock(T0),
    logger: createLogger({ level: 'silent' }),
    egressAllow: ['127.0.0.0/8'],
    ca: [rx.ca],
    publicUrl: 'https://vigil.example.com',
    onDispatched: async (e) => {
      dispatched.push(e);
    },
    ...extra,
  });
  const run = (a: ActionRecord, more: Partial<RunRequest> = {}) =>
    runner.run({ action: a, trigger: 'manual', executionId: newId('exe', T0), ...more });
  return { runner, executions, dispatched, run };
}

/** What arrived since `before` (the receivers are shared by the tests of this file). */
const arrivedSince = (before: number) => rx.seen.slice(before);

describe('the action runner', () => {
  it('sends the substituted URL, body and headers over HTTPS and records a success', async () => {
    const { run, executions, dispatched } = setup();
    const before = rx.seen.length;
    const a = action({
      url: `${rx.https}/hooks/{{entity_id}}?to={{ to_state }}&keep={{unknown}}`,
      headers: { Authorization: 'Bearer secret-token', 'X-Custom': 'yes' },
      body_template:
        '{"entity":"{{entity_name}}","from":"{{from_state}}","trn":"{{transition_id}}","cb":"{{callback_url}}"}',
      trigger_type: 'state_change',
    });
    const execution = await run(a, { trigger: 'state_change', event: EVENT });
    const [got] = arrivedSince(before);
    expect(got?.path).toBe(`/hooks/${EVENT.entity_id}?to=down&keep={{unknown}}`);
    expect(got?.method).toBe('POST');
    expect(got?.headers.authorization).toBe('Bearer secret-token');
    expect(got?.headers['x-custom']).toBe('yes');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got?.body ?? '')).toEqual({
      entity: 'a "quoted" name',
      from: 'up',
      trn: EVENT.transition_id,
      cb: `https://vigil.example.com/v1/actions/executions/${execution.id}/events`,
    });
    expect(execution).toMatchObject({
      dispatch_status: 'success',
      status_code: 200,
      response_snippet: 'accepted',
      error_message: null,
      trigger: 'state_change',
      transition_id: EVENT.transition_id,
      pipeline_status: null,
      callback_expires_at: '2026-03-02T12:00:00.000Z',
      pipeline_deadline_at: '2026-03-01T13:00:00.000Z',
      log_count: 0,
    });
    expect(execution.latency_ms).toBeGreaterThanOrEqual(0);
    expect(executions.stored.get(execution.id)).toEqual(execution);
    expect(dispatched.map((e) => e.id)).toEqual([execution.id]);
  });

  it('hands the pipeline a callback token that verifies and is never stored', async () => {
    const { run } = setup();
    const before = rx.seen.length;
    const execution = await run(
      action({ url: `${rx.http}/ci`, body_template: '{"token":"{{callback_token}}"}' }),
    );
    const token = JSON.parse(arrivedSince(before)[0]?.body ?? '{}').token as string;
    expect(token).toMatch(/^vcb_exe_/);
    expect(verifyCallbackToken(token, execution, T0)).toBe(true);
    expect(execution.vars.callback_token).toBe('********');
    expect(JSON.stringify(execution)).not.toContain(token);
  });

  it('lets manual vars override the built-ins and stores them', async () => {
    const { run } = setup();
    const before = rx.seen.length;
    const execution = await run(
      action({ url: `${rx.http}/{{ref}}`, body_template: 'name={{action_name}}' }),
      {
        vars: { ref: 'main', action_name: 'over"ridden' },
      },
    );
    const [got] = arrivedSince(before);
    expect(got?.path).toBe('/main');
    expect(got?.body).toBe('name=over"ridden');
    expect(got?.headers['content-type']).toBeUndefined();
    expect(execution.vars).toMatchObject({ ref: 'main', action_name: 'over"ridden' });
  });

  it('records a 500 as failed with the endpoint status', async () => {
    const execution = await setup().run(action({ url: `${rx.http}/status/500` }));
    expect(execution).toMatchObject({
      dispatch_status: 'failed',
      status_code: 500,
      response_snippet: 'answer 500',
      error_message: 'the endpoint answered 500',
    });
    expect(execution.pipeline_deadline_at).not.toBeNull();
  });

  it('records a 302 as the result without following it', async () => {
    const before = rx.seen.length;
    const execution = await setup().run(action({ url: `${rx.http}/redirect` }));
    expect(arrivedSince(before).map((s) => s.path)).toEqual(['/redirect']);
    expect(execution).toMatchObject({
      dispatch_status: 'failed',
      status_code: 302,
      response_snippet: 'moved',
      error_message: 'the endpoint answered 302',
    });
  });

  it('keeps the first 4 KB of the response', async () => {
    const execution = await setup().run(action({ url: `${rx.https}/big` }));
    expect(execution.dispatch_status).toBe('success');
    const snippet = execution.response_snippet ?? '';
    // 4096 bytes of two-byte characters: 2048 of them, none cut in half.
    expect(Buffer.byteLength(snippet)).toBeLessThanOrEqual(4096);
    expect(snippet.startsWith('é'.repeat(2000))).toBe(true);
  });

  it('fails with the timeout when the endpoint does not answer in timeout_ms', async () => {
    const execution = await setup().run(action({ url: `${rx.http}/slow`, timeout_ms: 150 }));
    expect(execution).toMatchObject({
      dispatch_status: 'failed',
      status_code: null,
      error_message: 'timed out after 150 ms',
    });
  });

  it('fails with the connection error when nothing listens', async () => {
    const execution = await setup().run(action({ url: 'http://127.0.0.1:1/' }));
    expect(execution).toMatchObject({ dispatch_status: 'failed', error_message: 'connection refused' });
  });

  it('fails a URL that does not parse after substitution and sends nothing', async () => {
    const { run, dispatched } = setup();
    const execution = await run(action({ url: '{{scheme}}://127.0.0.1/' }), { vars: { scheme: 'ftp' } });
    expect(execution.dispatch_status).toBe('failed');
    expect(execution.error_message).toMatch(/unsupported URL scheme ftp/);
    expect(execution.pipeline_deadline_at).toBeNull();
    expect(dispatched).toEqual([]);
  });

  it.each([
    ['a private address', 'http://10.0.0.1/x', ['127.0.0.0/8'], /10\.0\.0\.1 is/],
    ['loopback that is not allow-listed', 'http://127.0.0.1:1/x', [], /127\.0\.0\.1 is/],
    [
      'cloud metadata, even when 0.0.0.0/0 is allow-listed',
      'http://169.254.169.254/latest/meta-data/',
      ['0.0.0.0/0'],
      /169\.254\.169\.254/,
    ],
  ])('blocks %s and sends nothing', async (_name, url, egressAllow, why) => {
    const { run, dispatched } = setup({ egressAllow });
    const execution = await run(action({ url }));
    expect(execution).toMatchObject({
      dispatch_status: 'blocked',
      status_code: null,
      latency_ms: null,
      callback_token_hash: null,
      pipeline_deadline_at: null,
    });
    expect(execution.error_message).toMatch(why);
    expect(dispatched).toEqual([]);
  });

  it('blocks vars that rewrite the host to the metadata address', async () => {
    const before = rx.seen.length;
    const { run } = setup();
    const execution = await run(action({ url: `${rx.http}/x?{{q}}`.replace('127.0.0.1', '{{host}}') }), {
      vars: { host: '169.254.169.254', q: 'a' },
    });
    expect(execution.dispatch_status).toBe('blocked');
    expect(execution.vars.host).toBe('169.254.169.254');
    expect(arrivedSince(before)).toEqual([]);
  });

  it('checks a host name at connect time, so a rebinding answer is blocked', async () => {
    let answer = '127.0.0.1';
    const resolve: Resolve = async () => [{ address: answer, family: 4 }];
    const { run } = setup({ resolve });
    const port = new URL(rx.http).port;
    const a = action({ url: `http://hooks.example.test:${port}/rebind` });
    const before = rx.seen.length;
    expect((await run(a)).dispatch_status).toBe('success');
    answer = '10.0.0.1';
    const execution = await run(a);
    expect(execution.dispatch_status).toBe('blocked');
    expect(execution.error_message).toMatch(/10\.0\.0\.1/);
    expect(arrivedSince(before).length).toBe(1);
  });

  it('records a triggered run whose JSON body cannot be filled as failed, and sends nothing', async () => {
    const { run, dispatched } = setup();
    const before = rx.seen.length;
    const a = action({
      url: `${rx.http}/json`,
      headers: { 'Content-Type': 'application/json' },
      body_template: '{"entity": {{entity_name}}}',
      trigger_type: 'state_change',
    });
    const execution = await run(a, { trigger: 'state_change', event: EVENT });
    expect(execution).toMatchObject({
      dispatch_status: 'failed',
      status_code: null,
      callback_token_hash: null,
      pipeline_deadline_at: null,
    });
    expect(execution.error_message).toMatch(
      /^body_template: \{\{entity_name\}\} stands outside a JSON string/,
    );
    expect(arrivedSince(before)).toEqual([]);
    expect(dispatched).toEqual([]);
  });

  it('refuses a manual run whose var would stand bare in a JSON body before storing anything', async () => {
    const { run, executions } = setup();
    const before = rx.seen.length;
    const a = action({ url: `${rx.http}/json`, body_template: '{"n": {{n}}}' });
    await expect(run(a, { vars: { n: '1,"admin":true' } })).rejects.toThrow(/^vars\.n: /);
    expect(arrivedSince(before)).toEqual([]);
    expect(executions.puts()).toBe(0);
    expect(executions.leases.size).toBe(0);
  });

  it('answers a stored execution without sending again', async () => {
    const { run, executions } = setup();
    const before = rx.seen.length;
    const a = action({ url: `${rx.http}/once` });
    const id = newId('exe', T0);
    const first = await run(a, { executionId: id, trigger: 'state_change', event: EVENT });
    const again = await run(a, { executionId: id, trigger: 'state_change', event: EVENT });
    expect(again).toEqual(first);
    expect(arrivedSince(before).length).toBe(1);
    expect(executions.puts()).toBe(1);
  });

  it('answers the stored record when a concurrent run of the same id stored first', async () => {
    const executions = memoryExecutions();
    const a = action({ url: `${rx.http}/race` });
    const id = newId('exe', T0);
    const racing = {
      ...executions,
      putNew: async (record: ExecutionRecord) => {
        executions.stored.set(id, { ...record, response_snippet: 'stored first' });
        return false;
      },
    };
    const { runner } = setup({ executions: racing });
    const answered = await runner.run({ action: a, trigger: 'manual', executionId: id });
    expect(answered.response_snippet).toBe('stored first');
  });
});

describe('a manual run in flight', () => {
  it('is recorded running before its request is sent, and a stop marks it interrupted', async () => {
    const { runner, executions } = setup();
    const before = rx.seen.length;
    const id = newId('exe', T0);
    const a = action({ url: `${rx.http}/slow`, timeout_ms: 1000 });
    const running = runner.run({ action: a, trigger: 'manual', executionId: id });
    await expect.poll(() => arrivedSince(before).length, { timeout: 10_000 }).toBe(1);
    // The request is at the endpoint: its record was stored first.
    expect(executions.stored.get(id)).toMatchObject({ dispatch_status: 'running', trigger: 'manual' });
    expect(executions.stored.get(id)?.callback_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await runner.interruptInFlight()).toBe(1);
    expect(executions.stored.get(id)).toMatchObject({
      dispatch_status: 'interrupted',
      error_message: expect.stringMatching(/^interrupted: /),
    });
    // The send's outcome, when it still comes, is recorded over it (here the timeout).
    const done = await running;
    expect(done.dispatch_status).toBe('failed');
    expect(executions.stored.get(id)).toMatchObject({ dispatch_status: 'failed', pipeline_status: null });
    expect(await runner.interruptInFlight()).toBe(0);
  });
});

describe('the runner across processes', () => {
  it('sends once when two runners (two workers) get the same run at once, and both answer its record', async () => {
    const executions = memoryExecutions();
    const first = setup({ executions }).runner;
    const second = setup({ executions }).runner;
    const before = rx.seen.length;
    const a = action({ url: `${rx.http}/twice` });
    const id = newId('exe', T0);
    const request = { action: a, trigger: 'state_change' as const, executionId: id, event: EVENT };

    const [x, y] = await Promise.all([first.run(request), second.run(request)]);

    expect(arrivedSince(before).length).toBe(1);
    expect(x).toEqual(y);
    expect(executions.stored.size).toBe(1);
  });

  it('takes over a lease whose holder died before storing the record, and sends', async () => {
    const executions = memoryExecutions();
    const clock = createFakeClock(T0);
    const { runner } = setup({ executions, clock });
    const a = action({ url: `${rx.http}/taken-over`, timeout_ms: 1000 });
    const id = newId('exe', T0);
    await executions.reserve(id, T0, T0 + 6000);
    const before = rx.seen.length;

    clock.advance(6001);
    const execution = await runner.run({ action: a, trigger: 'state_change', executionId: id, event: EVENT });

    expect(execution.dispatch_status).toBe('success');
    expect(arrivedSince(before).length).toBe(1);
  });

  it('gives up with a retryable error while another live holder keeps the lease and stores nothing', async () => {
    const executions = memoryExecutions();
    const { runner } = setup({ executions });
    const a = action({ url: `${rx.http}/held`, timeout_ms: 100 });
    const id = newId('exe', T0);
    await executions.reserve(id, T0, T0 + 60_000);
    const before = rx.seen.length;

    await expect(
      runner.run({ action: a, trigger: 'state_change', executionId: id, event: EVENT }),
    ).rejects.toThrow('being sent by another worker');
    expect(arrivedSince(before).length).toBe(0);
  });
});

/** The rebinding name's answer: public while the action is created, switched to private before it runs. */
let rebindAnswer = '93.184.216.34';
const apiResolve: Resolve = async (host) => {
  if (host === 'rebind.example.test') return [{ address: rebindAnswer, family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

describe.each(runtimes)('POST /v1/actions/{id}/run on the $runtime runtime', ({ start }) => {
  let api: ApiHarness;
  let memberKey: string;
  let readOnlyKey: string;

  beforeAll(async () => {
    api = await start({
      env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8', VIGIL_PUBLIC_URL: 'https://vigil.example.com' },
      egress: { ca: [rx.ca], resolve: apiResolve },
    });
    const invite = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: `member-${api.runtime}@example.com` },
    });
    const accepted = await api.request('POST', '/v1/settings/users/accept', {
      body: { token: invite.body.token, name: 'Member' },
    });
    memberKey = accepted.body.key;
    const ro = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'read-only', is_read_only: true },
    });
    readOnlyKey = ro.body.key;
  });
  afterAll(async () => {
    await api?.close();
  });

  async function createAction(body: Record<string, unknown>): Promise<string> {
    const res = await api.request('POST', '/v1/actions', {
      key: api.adminKey,
      body: { name: 'restart', trigger_type: 'manual', ...body },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  }

  it('runs for a member and answers the execution; the receiver gets the filled request', async () => {
    const id = await createAction({
      url: `${rx.https}/run/{{action_id}}`,
      headers: { Authorization: 'Bearer s3cret' },
      body_template:
        '{"who":"{{who}}","exec":"{{execution_id}}","cb":"{{callback_url}}","token":"{{callback_token}}"}',
    });
    const before = rx.seen.length;
    const res = await api.request('POST', `/v1/actions/${id}/run`, {
      key: memberKey,
      body: { vars: { who: 'a "quoted" name' } },
    });
    expect(res.status, res.text).toBe(200);
    const execution = res.body;
    expect(execution).toMatchObject({
      action_id: id,
      trigger: 'manual',
      dispatch_status: 'success',
      status_code: 200,
      response_snippet: 'accepted',
      error_message: null,
      pipeline_status: null,
      transition_id: null,
    });
    expect(execution.id).toMatch(/^exe_/);
    expect(execution.vars).toMatchObject({ who: 'a "quoted" name', callback_token: '********' });
    expect(execution).not.toHaveProperty('callback_token_hash');
    const [got] = arrivedSince(before);
    expect(got?.path).toBe(`/run/${id}`);
    expect(got?.headers.authorization).toBe('Bearer s3cret');
    const sent = JSON.parse(got?.body ?? '{}');
    expect(sent).toMatchObject({
      who: 'a "quoted" name',
      exec: execution.id,
      cb: `https://vigil.example.com/v1/actions/executions/${execution.id}/events`,
    });
    expect(res.text).not.toContain(sent.token);

    // The token the pipeline got reports against this execution.
    const report = await api.request('POST', `/v1/actions/executions/${execution.id}/events`, {
      headers: { authorization: `Bearer ${sent.token}` },
      body: { status: 'running' },
    });
    expect(report.status, report.text).toBeLessThan(300);

    const history = await api.request('GET', `/v1/actions/${id}/executions`, { key: memberKey });
    expect(history.body.executions.map((e: { id: string }) => e.id)).toEqual([execution.id]);
  });

  it('records a run whose vars rewrite the host to 169.254.169.254 as blocked, and sends nothing', async () => {
    const id = await createAction({ url: `${rx.http}/x`.replace('127.0.0.1', '{{host}}') });
    const before = rx.seen.length;
    const res = await api.request('POST', `/v1/actions/${id}/run`, {
      key: api.adminKey,
      body: { vars: { host: '169.254.169.254' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ dispatch_status: 'blocked', status_code: null });
    expect(res.body.error_message).toMatch(/169\.254\.169\.254/);
    expect(arrivedSince(before)).toEqual([]);
    const history = await api.request('GET', `/v1/actions/${id}/executions`, { key: api.adminKey });
    expect(history.body.executions[0]).toMatchObject({ id: res.body.id, dispatch_status: 'blocked' });
  });

  it('blocks a name that resolved public at create and private at run', async () => {
    rebindAnswer = '93.184.216.34';
    const id = await createAction({ url: 'http://rebind.example.test/hook' });
    rebindAnswer = '10.0.0.1';
    const res = await api.request('POST', `/v1/actions/${id}/run`, { key: api.adminKey });
    expect(res.status, res.text).toBe(200);
    expect(res.body.dispatch_status).toBe('blocked');
    expect(res.body.error_message).toMatch(/10\.0\.0\.1/);
  });

  it("runs an execution id once through the app's runner and store, however often it is asked", async () => {
    const id = await createAction({ url: `${rx.http}/twice` });
    const action = await api.app.actions.get(api.tenantId, id);
    if (!action) throw new Error('the action was not stored');
    const executionId = newId('exe');
    const before = rx.seen.length;
    const request = { action, trigger: 'manual' as const, executionId };
    const [first, second] = await Promise.all([
      api.app.actionRunner.run(request),
      api.app.actionRunner.run(request),
    ]);
    const third = await api.app.actionRunner.run(request);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(arrivedSince(before).map((s) => s.path)).toEqual(['/twice']);
  });

  it('refuses a read-only key with READ_ONLY and sends nothing', async () => {
    const id = await createAction({ url: `${rx.http}/ro` });
    const before = rx.seen.length;
    const res = await api.request('POST', `/v1/actions/${id}/run`, { key: readOnlyKey });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('READ_ONLY');
    expect(arrivedSince(before)).toEqual([]);
  });

  it("answers 404 for another tenant's action and sends nothing", async () => {
    const id = await createAction({ url: `${rx.http}/other` });
    const other = await api.createTenant('other');
    const before = rx.seen.length;
    const res = await api.request('POST', `/v1/actions/${id}/run`, { key: other.key });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    expect(arrivedSince(before)).toEqual([]);
    const missing = await api.request('POST', `/v1/actions/${newId('act')}/run`, { key: api.adminKey });
    expect(missing.status).toBe(404);
  });

  it.each([
    ['more than 50 vars', { vars: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`v${i}`, 'x'])) }],
    ['a name that is not a template name', { vars: { 'Bad-Name': 'x' } }],
    ['a value over 2 KB', { vars: { big: 'x'.repeat(2049) } }],
    ['a value that is not a string', { vars: { n: 1 } }],
    ['an unknown field', { vars: {}, extra: true }],
  ])('rejects %s with 400 and sends nothing', async (_name, body) => {
    const id = await createAction({ url: `${rx.http}/bad` });
    const before = rx.seen.length;
    const res = await api.request('POST', `/v1/actions/${id}/run`, { key: api.adminKey, body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(arrivedSince(before)).toEqual([]);
  });

  it('accepts 50 vars of 2 KB each', async () => {
    const id = await createAction({ url: `${rx.http}/full` });
    const vars = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`v${i}`, 'é'.repeat(1024)]));
    const res = await api.request('POST', `/v1/actions/${id}/run`, { key: api.adminKey, body: { vars } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.dispatch_status).toBe('success');
  });
});
