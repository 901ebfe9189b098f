import { describe, expect, it } from 'vitest';
import { bothRuntimes } from '../support/api-harness.ts';
import { loginSteps, PASSWORD, TOKEN } from './support/login-api.ts';
import { useLoginApp } from './support/login-app.ts';

/**
 * Multistep checks through the API in both runtimes: create (secret variables read `********`),
 * the 400s, POST /v1/checks/{id}/run against a login API on 127.0.0.1 (the result's steps, no
 * secret anywhere it is shown or stored), and an update that keeps a secret by `********`.
 */
describe.each(bothRuntimes)('multistep checks ($runtime runtime)', ({ start }) => {
  const app = useLoginApp(start);
  const call = (method: string, path: string, body?: unknown) =>
    app.api.request(method, path, { key: app.api.adminKey, body });

  const config = (password: string) => loginSteps(app.server.origin, password);
  const create = (body: unknown) =>
    call('POST', '/v1/checks', {
      entity_id: app.entityId,
      check_type: 'multistep',
      interval_seconds: 3600,
      config: body,
    });

  it('creates a check whose secret variables read ********, and runs it now with each step in the result', async () => {
    const created = await create(config(PASSWORD));
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      check_type: 'multistep',
      name: `Multistep 127.0.0.1:${new URL(app.server.origin).port} (2 steps)`,
      config: { variables: { password: { value: '********', secret: true } } },
    });
    expect(created.text).not.toContain(PASSWORD);

    const run = await call('POST', `/v1/checks/${created.body.id}/run`);

    expect(run.status, run.text).toBe(200);
    expect(run.body.result).toMatchObject({
      manual: true,
      success: true,
      details: {
        steps: [
          { name: 'login', outcome: 'passed', status_code: 200, timings: { total_ms: expect.any(Number) } },
          { name: 'me', outcome: 'passed', status_code: 200 },
        ],
      },
    });
    expect(app.server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('stores a failing run with its first failing step, the secrets hidden', async () => {
    const failing = config(PASSWORD);
    failing.steps.push({
      name: 'echo',
      url: `${app.server.origin}/echo`,
      headers: { 'x-pass': '{{variables.password}}' } as never,
      assertions: [{ source: 'json', path: '$.headers.x-pass', op: 'eq', value: 'something else' }],
    } as never);
    const created = await create(failing);
    expect(created.status, created.text).toBe(201);

    const run = await call('POST', `/v1/checks/${created.body.id}/run`);
    const listed = await call('GET', `/v1/checks/${created.body.id}/results`);

    expect(run.body.result).toMatchObject({ success: false, details: { failed_step: 'echo' } });
    expect(run.body.result.error_message).toMatch(/^step 3 "echo": assertion failed/);
    for (const text of [run.text, listed.text]) {
      expect(text).toContain('********');
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
  });

  it('keeps a stored secret when an update sends ******** back', async () => {
    const created = await create(config(PASSWORD));
    const id = String(created.body.id);

    const updated = await call('PUT', `/v1/checks/${id}`, { config: created.body.config });
    expect(updated.status, updated.text).toBe(200);
    const run = await call('POST', `/v1/checks/${id}/run`);

    expect(run.body.result).toMatchObject({ success: true });
  });

  it.each([
    [{ steps: [] }, 'config.steps', 'Give at least one step.'],
    [
      { steps: Array.from({ length: 11 }, (_, i) => ({ name: `s${i}`, url: 'https://example.com/' })) },
      'config.steps',
      'Use at most 10 steps.',
    ],
    [
      { steps: [{ name: 'a', url: 'https://example.com/{{variables.nope}}' }] },
      'config.steps.0.url',
      '{{variables.nope}}: no variable is named "nope".',
    ],
  ])('refuses a bad config naming the field (%#)', async (body, path, message) => {
    const res = await create(body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details).toContainEqual(expect.objectContaining({ path, message }));
  });
});
