import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { newId } from '../../lib/platform/ids.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { seedExecution } from './support/seed-execution.ts';

const DAY_MS = 86_400_000;

describe.each(runtimes)('pipeline write-back ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  let actionId: string;
  let member: string;
  let viewer: string;
  const clock = createFakeClock(Date.parse('2026-04-01T08:00:00.000Z'));

  /** Stores an execution of the test action as the runner does; answers its id and callback token. */
  const seed = (tenantId = api.tenantId, action = actionId) => seedExecution(api, clock, tenantId, action);
  const events = (id: string, body: unknown, key = api.adminKey) =>
    api.request('POST', `/v1/actions/executions/${id}/events`, { key, body });
  const logs = async (id: string, key = api.adminKey) => {
    const res = await api.request('GET', `/v1/actions/executions/${id}/logs`, { key });
    expect(res.status, res.text).toBe(200);
    return res.body as Array<{ seq: number; line: string; at: string }>;
  };
  const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `line ${from + i + 1}`);

  beforeAll(async () => {
    api = await start({ clock, env: { VIGIL_EGRESS_ALLOW: '127.0.0.0/8' } });
    const made = await api.request('POST', '/v1/actions', {
      key: api.adminKey,
      body: { name: 'Deploy', url: 'http://127.0.0.1:9/deploy' },
    });
    expect(made.status, made.text).toBe(201);
    actionId = made.body.id;
    viewer = (
      await api.request('POST', '/v1/auth/keys', {
        key: api.adminKey,
        body: { label: 'ro', is_read_only: true },
      })
    ).body.key;
    const invite = await api.request('POST', '/v1/settings/users/invite', {
      key: api.adminKey,
      body: { email: 'dev@example.com' },
    });
    member = (
      await api.request('POST', '/v1/settings/users/accept', {
        body: { token: invite.body.token, name: 'Dev' },
      })
    ).body.key;
  });
  afterAll(async () => {
    await api.close();
  });

  it('keeps the last status written and the lines in report order', async () => {
    const { id, token } = await seed();
    for (const status of ['queued', 'running', 'succeeded', 'running']) {
      const res = await events(id, { status }, token);
      expect(res.status, res.text).toBe(200);
      expect(res.body.pipeline_status).toBe(status);
    }
    expect((await events(id, { logs: ['checkout', 'build'] }, token)).status).toBe(200);
    const both = await events(id, { status: 'failed', logs: ['test failed'] }, token);
    expect(both.body).toMatchObject({ id, action_id: actionId, pipeline_status: 'failed' });
    expect(both.text).not.toContain('callback_token_hash');
    const got = await logs(id);
    expect(got.map((l) => [l.seq, l.line])).toEqual([
      [1, 'checkout'],
      [2, 'build'],
      [3, 'test failed'],
    ]);
    const page = await api.request('GET', `/v1/actions/${actionId}/executions`, { key: viewer });
    expect(page.body.executions.find((e: { id: string }) => e.id === id)?.pipeline_status).toBe('failed');
  });

  it('rejects over 100 lines, a line over 2 KB and an empty report with 400, storing nothing', async () => {
    const { id, token } = await seed();
    const over = [
      { logs: lines(101) },
      { logs: ['ok', 'x'.repeat(2049)] },
      { logs: ['é'.repeat(1025)] },
      {},
      { status: 'done' },
      { status: 'running', extra: 1 },
    ];
    for (const body of over) {
      const res = await events(id, body, token);
      expect([res.status, res.body.code], JSON.stringify(body).slice(0, 60)).toEqual([
        400,
        'VALIDATION_ERROR',
      ]);
    }
    expect(await logs(id)).toEqual([]);
    expect((await events(id, { logs: ['x'.repeat(2048), 'é'.repeat(1024)] }, token)).status).toBe(200);
    expect((await events(id, { logs: lines(100) }, token)).status).toBe(200);
    expect(await logs(id)).toHaveLength(102);
  });

  it('holds 1,000 lines per execution: a request that would pass them is 409 LOG_LIMIT and stores nothing', async () => {
    const { id, token } = await seed();
    for (let i = 0; i < 9; i += 1)
      expect((await events(id, { logs: lines(100, i * 100) }, token)).status).toBe(200);
    expect((await events(id, { logs: lines(50, 900) }, token)).status).toBe(200);
    const whole = await events(id, { status: 'succeeded', logs: lines(51, 950) }, token);
    expect([whole.status, whole.body.code]).toEqual([409, 'LOG_LIMIT']);
    expect((await api.app.executions.get(id))?.pipeline_status).toBeNull();
    expect(await logs(id)).toHaveLength(950);
    expect((await events(id, { logs: lines(50, 950) }, token)).status).toBe(200);
    const full = await events(id, { logs: ['one more'] }, token);
    expect([full.status, full.body.code]).toEqual([409, 'LOG_LIMIT']);
    const stored = await logs(id);
    expect(stored).toHaveLength(1000);
    expect(stored.map((l) => l.line)).toEqual(lines(1000));
    expect(stored.map((l) => l.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect((await events(id, { status: 'succeeded' }, token)).status).toBe(200);
  });

  it('takes the callback token for its own execution only, until it expires', async () => {
    const mine = await seed();
    const other = await seed();
    const foreign = await events(other.id, { status: 'running' }, mine.token);
    expect([foreign.status, foreign.body.code]).toEqual([401, 'UNAUTHORIZED']);
    const forged = `${mine.token.slice(0, -4)}AAAA`;
    expect((await events(mine.id, { status: 'running' }, forged)).status).toBe(401);
    expect((await events(mine.id, { status: 'running' })).status).toBe(200);
    expect(
      (await api.request('POST', `/v1/actions/executions/${mine.id}/events`, { body: { status: 'running' } }))
        .status,
    ).toBe(401);
    // The token reads nothing: the logs route takes API keys only.
    expect(
      (await api.request('GET', `/v1/actions/executions/${mine.id}/logs`, { key: mine.token })).status,
    ).toBe(401);
    clock.advance(DAY_MS - 1000);
    expect((await events(mine.id, { status: 'succeeded' }, mine.token)).status).toBe(200);
    clock.advance(1000);
    const expired = await events(mine.id, { status: 'failed' }, mine.token);
    expect([expired.status, expired.body.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await api.app.executions.get(mine.id))?.pipeline_status).toBe('succeeded');
  });

  it('takes a writable API key of the tenant: admins and members yes, read-only keys 403 READ_ONLY', async () => {
    const { id } = await seed();
    expect((await events(id, { status: 'queued' }, member)).status).toBe(200);
    expect((await events(id, { logs: ['by admin'] })).status).toBe(200);
    const ro = await events(id, { status: 'failed' }, viewer);
    expect([ro.status, ro.body.code]).toEqual([403, 'READ_ONLY']);
    expect((await events(id, { status: 'failed' }, 'vgl_not-a-key')).status).toBe(401);
    expect((await api.app.executions.get(id))?.pipeline_status).toBe('queued');
    expect((await logs(id, viewer)).map((l) => l.line)).toEqual(['by admin']);
  });

  it('answers 404 for another tenant’s execution and for one that does not exist', async () => {
    const { id } = await seed();
    const other = await api.createTenant('Elsewhere');
    const write = await events(id, { status: 'failed', logs: ['pwned'] }, other.key);
    expect([write.status, write.body.code]).toEqual([404, 'NOT_FOUND']);
    const read = await api.request('GET', `/v1/actions/executions/${id}/logs`, { key: other.key });
    expect([read.status, read.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await api.app.executions.get(id))?.pipeline_status).toBeNull();
    expect(await logs(id)).toEqual([]);
    expect((await events(newId('exe'), { status: 'running' })).status).toBe(404);
    expect((await events('exe_nope', { status: 'running' })).status).toBe(404);
  });
});
