import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multistepInput } from '../../lib/check-types/multistep/multistep-schema.ts';
import { runProbe } from '../../lib/check-types/run-probe.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import type { ApiStepReport, ProbeDeps, ProbeOutcome } from '../../lib/probes/types.ts';
import { type LoginApi, PASSWORD, SESSION, startLoginApi, TOKEN } from './support/login-api.ts';

/** Multistep checks against a login API on 127.0.0.1: values pass between steps, secrets stay hidden, the guard holds. */

const deps: ProbeDeps = { clock: systemClock, allowPrivate: true };
let api: LoginApi;

/** A multistep run's steps (a result's steps may be a browser run's too). */
const apiSteps = (outcome: ProbeOutcome) =>
  (outcome.details?.steps ?? []).filter((s): s is ApiStepReport => 'name' in s);

beforeAll(async () => {
  api = await startLoginApi();
});
afterAll(() => api.close());

/** The job the scheduler builds from a config the API accepted. */
const job = (config: unknown, common: { timeout_ms?: number; degraded_latency_ms?: number } = {}) => ({
  ...multistepInput.parse(config),
  check_type: 'multistep',
  timeout_ms: common.timeout_ms ?? 5000,
  ...(common.degraded_latency_ms !== undefined ? { degraded_latency_ms: common.degraded_latency_ms } : {}),
});

const login = () => ({
  name: 'login',
  method: 'POST' as const,
  url: `${api.origin}/login`,
  headers: { 'content-type': 'application/json' },
  body: '{"user": "ada", "password": "{{variables.password}}"}',
  extract: {
    token: { source: 'json_body', path: '$.token' },
    session: { source: 'cookie', name: 'session' },
  },
});
const secretPassword = { password: { value: PASSWORD, secret: true } };

describe('a login flow', () => {
  it('passes the token, an extracted id and the session cookie to later steps', async () => {
    const outcome = await runProbe(
      job({
        variables: secretPassword,
        steps: [
          login(),
          {
            name: 'me',
            url: `${api.origin}/me`,
            headers: { authorization: 'Bearer {{steps.login.token}}' },
            assertions: [{ source: 'json', path: '$.name', op: 'eq', value: 'ada' }],
            extract: { id: { source: 'json_body', path: '$.id' } },
          },
          {
            name: 'orders',
            url: `${api.origin}/orders?user={{steps.me.id}}`,
            headers: { cookie: 'session={{steps.login.session}}' },
            expected_status: 200,
          },
          {
            name: 'form',
            url: `${api.origin}/form`,
            extract: { csrf: { source: 'body_regex', pattern: 'name="csrf" value="([^"]+)"' } },
          },
        ],
      }),
      deps,
    );

    expect(outcome.error_message).toBe('');
    expect(outcome.success).toBe(true);
    expect(apiSteps(outcome).map((s) => [s.name, s.outcome, s.status_code])).toEqual([
      ['login', 'passed', 200],
      ['me', 'passed', 200],
      ['orders', 'passed', 200],
      ['form', 'passed', 200],
    ]);
    for (const step of apiSteps(outcome)) {
      expect(step.timings).toMatchObject({
        connect_ms: expect.any(Number),
        first_byte_ms: expect.any(Number),
        total_ms: expect.any(Number),
      });
    }
    const seen = api.requests.slice(-4);
    expect(JSON.parse(seen[0]?.body ?? '{}')).toEqual({ user: 'ada', password: PASSWORD });
    expect(seen[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[2]?.url).toBe('/orders?user=7');
    expect(seen[2]?.headers.cookie).toBe(`session=${SESSION}`);
  });

  it('names the first failing step with its reason and skips the rest', async () => {
    const outcome = await runProbe(
      job({
        variables: { password: { value: 'wrong-password', secret: true } },
        steps: [
          login(),
          { name: 'me', url: `${api.origin}/me`, headers: { authorization: 'Bearer {{steps.login.token}}' } },
        ],
      }),
      deps,
    );

    expect(outcome.success).toBe(false);
    expect(outcome.status_code).toBe(401);
    expect(outcome.error_message).toBe('step 1 "login": expected status 2xx, got 401');
    expect(outcome.details?.failed_step).toBe('login');
    expect(outcome.details?.steps?.map((s) => s.outcome)).toEqual(['failed', 'skipped']);
  });

  it('fails a step whose extraction finds nothing, naming the value', async () => {
    const outcome = await runProbe(
      job({
        steps: [
          {
            name: 'me',
            url: `${api.origin}/form`,
            extract: { token: { source: 'json_body', path: '$.token' } },
          },
        ],
      }),
      deps,
    );

    expect(outcome.error_message).toBe('step 1 "me": extract token: json $.token is missing');
  });
});

describe('secrets', () => {
  it('hides secret variables and sent header values in the message and every step', async () => {
    const outcome = await runProbe(
      job({
        variables: secretPassword,
        steps: [
          login(),
          {
            name: 'echo',
            url: `${api.origin}/echo`,
            headers: { 'x-pass': '{{variables.password}}', authorization: 'Bearer {{steps.login.token}}' },
            assertions: [
              { source: 'json', path: '$.headers.authorization', op: 'exists' },
              { source: 'json', path: '$.headers.x-pass', op: 'eq', value: 'not the password' },
            ],
          },
        ],
      }),
      deps,
    );

    expect(outcome.success).toBe(false);
    expect(outcome.error_message).toContain('step 2 "echo": assertion failed');
    const stored = JSON.stringify(outcome);
    expect(stored).toContain('********');
    expect(stored).not.toContain(PASSWORD);
    expect(stored).not.toContain(TOKEN);
  });
});

describe('the SSRF guard', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
  ])('refuses a later step to cloud metadata (%s) after a step that passed', async (url) => {
    const outcome = await runProbe(
      job({
        steps: [
          { name: 'ok', url: `${api.origin}/me?x=1`, expected_status: 401 },
          { name: 'meta', url },
        ],
      }),
      deps,
    );

    expect(outcome.details?.steps?.map((s) => s.outcome)).toEqual(['passed', 'failed']);
    expect(outcome.error_message).toMatch(/^step 2 "meta": .*cloud metadata/);
  });

  it('refuses a redirect to cloud metadata in a later step', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    const outcome = await runProbe(
      job({
        steps: [
          { name: 'ok', url: `${api.origin}/form` },
          { name: 'hop', url: `${api.origin}/redirect?to=${to}` },
        ],
      }),
      deps,
    );

    expect(outcome.details?.failed_step).toBe('hop');
    expect(outcome.error_message).toMatch(/^step 2 "hop": .*cloud metadata/);
  });

  it('refuses loopback and private steps where private targets are not allowed, without connecting', async () => {
    const before = api.requests.length;
    const strict = { ...deps, allowPrivate: false };
    const loop = await runProbe(job({ steps: [{ name: 'a', url: `${api.origin}/form` }] }), strict);
    const lan = await runProbe(job({ steps: [{ name: 'a', url: 'http://10.1.2.3/' }] }), strict);
    const redirected = await runProbe(
      job({ steps: [{ name: 'a', url: `${api.origin.replace('127.0.0.1', 'localhost')}/form` }] }),
      strict,
    );

    expect(loop.error_message).toMatch(/^step 1 "a": .*loopback/);
    expect(lan.error_message).toMatch(/^step 1 "a": .*private/);
    expect(redirected.success).toBe(false);
    expect(api.requests.length).toBe(before);
  });
});

describe('deadlines and degraded', () => {
  it("ends the run when the check's timeout_ms (the total deadline) runs out", async () => {
    const outcome = await runProbe(
      job(
        {
          steps: [
            { name: 'slow', url: `${api.origin}/slow` },
            { name: 'next', url: `${api.origin}/form` },
          ],
        },
        { timeout_ms: 300 },
      ),
      deps,
    );

    expect(outcome.error_message).toBe(
      `step 1 "slow": the check's timeout_ms of 300 ms ran out during this step`,
    );
    expect(outcome.details?.steps?.map((s) => s.outcome)).toEqual(['failed', 'skipped']);
  });

  it('ends a step at its own timeout_ms when that comes first', async () => {
    const outcome = await runProbe(
      job({ steps: [{ name: 'slow', url: `${api.origin}/slow`, timeout_ms: 200 }] }, { timeout_ms: 10_000 }),
      deps,
    );

    expect(outcome.error_message).toBe('step 1 "slow": timed out after 200 ms');
  });

  it('is degraded when a step passes slower than its degraded_latency_ms', async () => {
    const outcome = await runProbe(
      job({
        steps: [
          { name: 'fast', url: `${api.origin}/form` },
          { name: 'late', url: `${api.origin}/delay?ms=40`, degraded_latency_ms: 20 },
        ],
      }),
      deps,
    );

    expect(outcome).toMatchObject({ success: true, degraded: true });
    expect(outcome.error_message).toMatch(
      /^step 2 "late": latency \d+ ms is above its degraded_latency_ms 20$/,
    );
    expect(outcome.details?.steps?.map((s) => s.outcome)).toEqual(['passed', 'degraded']);
  });

  it("is degraded when the whole run is slower than the check's degraded_latency_ms", async () => {
    const outcome = await runProbe(
      job({ steps: [{ name: 'late', url: `${api.origin}/delay?ms=40` }] }, { degraded_latency_ms: 20 }),
      deps,
    );

    expect(outcome).toMatchObject({ success: true, degraded: true });
    expect(outcome.error_message).toMatch(/^latency \d+ ms is above degraded_latency_ms 20$/);
  });
});
