import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { type ApiHarness, type ApiResponse, type RequestOptions, runtimes } from '../support/api-harness.ts';
import { seedExecution } from './support/seed-execution.ts';

// A fake clock on a minute boundary: the cloud's windows and the local buckets both start full.
const START = Date.parse('2026-01-01T00:00:00.000Z');

const eventsPath = (id: string) => `/v1/actions/executions/${id}/events`;
const codeOf = (res: ApiResponse) => [res.status, res.body?.code];

describe.each(runtimes)(
  'who may write pipeline events, checked before the body ($runtime runtime)',
  ({ start }) => {
    let api: ApiHarness;
    let viewer: string;
    const clock = createFakeClock(START);
    const seed = (tenantId = api.tenantId) => seedExecution(api, clock, tenantId, newId('act'));

    beforeAll(async () => {
      api = await start({ clock });
      const made = await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'ro', is_read_only: true },
      });
      viewer = made.body.key;
    });
    afterAll(async () => {
      await api.close();
    });

    it('answers 401 to a caller without a valid key or token, whatever the body', async () => {
      const { id } = await seed();
      const forged = `vcb_${id}_${'A'.repeat(40)}`;
      const attempts: RequestOptions[] = [
        { rawBody: 'not json' },
        { body: { status: 'bogus' } },
        { body: {} },
        { key: generateApiKey(), rawBody: '{' },
        { key: forged, body: { unknown: true } },
      ];

      const answers = await Promise.all(attempts.map((opts) => api.request('POST', eventsPath(id), opts)));

      expect(answers.map(codeOf)).toEqual(attempts.map(() => [401, 'UNAUTHORIZED']));
    });

    it('answers 403 READ_ONLY to a read-only key, whatever the body', async () => {
      const { id } = await seed();

      const answers = await Promise.all(
        [{ rawBody: 'not json' }, { body: { status: 'bogus' } }].map((opts) =>
          api.request('POST', eventsPath(id), { key: viewer, ...opts }),
        ),
      );

      expect(answers.map(codeOf)).toEqual([
        [403, 'READ_ONLY'],
        [403, 'READ_ONLY'],
      ]);
    });

    it('answers 400 to a bad body from a caller who may write', async () => {
      const { id, token } = await seed();

      const byToken = await api.request('POST', eventsPath(id), { key: token, body: { status: 'bogus' } });
      const byKey = await api.request('POST', eventsPath(id), { key: api.adminKey, rawBody: 'not json' });

      expect(codeOf(byToken)).toEqual([400, 'VALIDATION_ERROR']);
      expect(codeOf(byKey)).toEqual([400, 'VALIDATION_ERROR']);
    });

    it('refuses a disabled tenant’s callback token with 403 ACCOUNT_DISABLED and writes nothing', async () => {
      const paused = await api.createTenant('Paused');
      const { id, token } = await seed(paused.tenantId);
      const before = await api.request('POST', eventsPath(id), { key: token, body: { status: 'running' } });
      await api.app.tenants.setDisabled(paused.tenantId, true);

      const after = await api.request('POST', eventsPath(id), {
        key: token,
        body: { status: 'failed', logs: ['late'] },
      });

      expect(before.status, before.text).toBe(200);
      expect(codeOf(after)).toEqual([403, 'ACCOUNT_DISABLED']);
      const stored = await api.app.executions.get(id);
      expect([stored?.pipeline_status, stored?.log_count]).toEqual(['running', 0]);
    });
  },
);

describe.each(runtimes)('rate limits of the pipeline write-back and MCP ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const clock = createFakeClock(START);
  const seed = () => seedExecution(api, clock, api.tenantId, newId('act'));
  const events = (id: string, key: string, body: unknown = { status: 'running' }) =>
    api.request('POST', eventsPath(id), { key, body });
  const mcp = (key: string) =>
    api.request('POST', '/v1/mcp', {
      key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });

  beforeAll(async () => {
    api = await start({
      clock,
      env: {
        VIGIL_AUTH_FAILURE_LIMIT: '3',
        VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: '6',
        VIGIL_RATE_LIMIT_RPS: '1',
        VIGIL_RATE_LIMIT_BURST: '5',
      },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('counts wrong callback tokens as failed authentications of the address', async () => {
    const { id, token } = await seed();
    const forged = `${token.slice(0, -4)}AAAA`;

    const answers: ApiResponse[] = [];
    for (let i = 0; i < 4; i += 1) answers.push(await events(id, forged));
    const right = await events(id, token);
    const other = await seed();
    const otherWrite = await events(other.id, other.token);

    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(answers[3]?.body.error).toMatch(/failed authentications from this address/);
    expect(Number(answers[3]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // That execution's token is blocked from this address, the right one too; others are not.
    expect(right.status).toBe(429);
    expect(otherWrite.status, otherWrite.text).toBe(200);
  });

  it('limits the writes of one callback token, with Retry-After', async () => {
    clock.advance(60_000);
    const { id, token } = await seed();

    const answers: ApiResponse[] = [];
    for (let i = 0; i < 6; i += 1) answers.push(await events(id, token, { logs: [`line ${i}`] }));
    const other = await seed();

    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0]?.headers['ratelimit-limit']).toBe('5');
    expect(answers[5]?.body.code).toBe('RATE_LIMITED');
    expect(Number(answers[5]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await api.app.executions.get(id))?.log_count).toBe(5);
    expect((await events(other.id, other.token)).status).toBe(200);
  });

  it('counts wrong keys on the events route and /v1/mcp, then answers 429 there to a correct key too', async () => {
    clock.advance(60_000);
    const { id } = await seed();

    const wrong: number[] = [];
    for (let i = 0; i < 3; i += 1) wrong.push((await events(id, generateApiKey())).status);
    for (let i = 0; i < 3; i += 1) wrong.push((await mcp(generateApiKey())).status);
    const blocked = [
      await events(id, generateApiKey()),
      await events(id, api.adminKey),
      await mcp(api.adminKey),
    ];

    expect(wrong).toEqual([401, 401, 401, 401, 401, 401]);
    expect(blocked.map((r) => r.status)).toEqual([429, 429, 429]);
    expect(blocked[2]?.body.error).toMatch(/failed authentications from this address/);
  });

  it('lets the address in again after the minute', async () => {
    clock.advance(60_000);
    const { id } = await seed();

    expect((await events(id, api.adminKey)).status).toBe(200);
    expect((await mcp(api.adminKey)).status).toBe(200);
  });
});
