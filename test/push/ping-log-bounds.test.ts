import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/platform/config.ts';
import { PING_BODY_OVER_BUDGET_BYTES } from '../../lib/push/log/ping-items.ts';
import { type ApiHarness, runtimes } from '../support/api-harness.ts';
import { pingKit } from '../support/ping-compat-kit.ts';

/**
 * What one leaked ping URL can cost (docs/heartbeats.md "The ping log's bounds"): the log keeps a
 * check's last N pings, a tenant's day of ping bodies is a budget past which bodies are cut (the
 * pings still count), each ping URL has a rate below an API key's, and wrong slugs count per ping
 * key from every address together.
 */
describe.each(runtimes)('the ping log bounds ($runtime runtime)', ({ start }) => {
  let api: ApiHarness;
  const kit = pingKit(() => api);
  const post = (url: string, body: string) =>
    api.request('POST', url, { rawBody: body, headers: { 'content-type': 'text/plain' } });

  beforeAll(async () => {
    api = await start({
      env: {
        VIGIL_PING_LOG_KEEP: '3',
        VIGIL_PING_BODY_BYTES_PER_DAY: '5000',
        // The per-key limit on (the ping URLs' is capped by it); a day's budget of slugs guessed.
        VIGIL_RATE_LIMIT_RPS: '20',
        VIGIL_RATE_LIMIT_BURST: '100',
        VIGIL_PING_RATE_LIMIT_RPS: '0.001',
        VIGIL_PING_RATE_LIMIT_BURST: '6',
        VIGIL_PING_KEY_GUESS_LIMIT: '3',
      },
    });
  });
  afterAll(async () => {
    await api.close();
  });

  it('keeps the last N pings of a check, deleting the oldest as new ones arrive; every ping counts', async () => {
    const { checkId, token } = await kit.pushCheck();
    for (const n of [1, 2, 3, 4, 5]) kit.expectText(await post(`/ping/${token}`, `run ${n}`), 200, 'OK');

    expect((await kit.pings(checkId)).map((p) => p.body)).toEqual(['run 5', 'run 4', 'run 3']);
    const listed = await kit.call('GET', `/v1/checks/${checkId}/pings`);
    expect(listed.body.pings.map((p: { body: string }) => p.body)).toEqual(['run 5', 'run 4', 'run 3']);
    expect(await kit.results(checkId)).toHaveLength(5);
  });

  it("cuts bodies past the tenant's day of ping bodies, marked so; the ping still records its result", async () => {
    const { checkId, token } = await kit.pushCheck();
    kit.expectText(await post(`/ping/${token}/log`, 'a'.repeat(4000)), 200, 'OK');
    kit.expectText(await post(`/ping/${token}/fail`, 'b'.repeat(4000)), 200, 'OK');

    const [cut, whole] = await kit.pings(checkId);
    expect(whole).toMatchObject({ kind: 'log', body: 'a'.repeat(4000) });
    expect(whole?.body_over_budget).toBeUndefined();
    expect(cut).toMatchObject({
      kind: 'fail',
      body: 'b'.repeat(PING_BODY_OVER_BUDGET_BYTES),
      body_truncated: true,
      body_over_budget: true,
    });
    expect((await kit.results(checkId)).map((r) => r.success)).toEqual([false]);
    expect((await kit.state(checkId)).state).toBe('down');
    const listed = await kit.call('GET', `/v1/checks/${checkId}/pings`);
    expect(listed.body.pings[0]).toMatchObject({ body_truncated: true, body_over_budget: true });
  });

  it("answers 429 in text with Retry-After past a ping URL's own rate", async () => {
    const { checkId, token } = await kit.pushCheck();
    for (let n = 0; n < 6; n += 1) kit.expectText(await api.request('GET', `/ping/${token}`), 200, 'OK');

    const refused = await api.request('GET', `/ping/${token}`);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await kit.results(checkId)).toHaveLength(6);
  });

  it('counts wrong slugs per ping key: past the budget every slug of that key is 429, other keys go on', async () => {
    const key = await kit.call('POST', '/v1/settings/ping-key');
    expect(key.status, key.text).toBe(201);
    const pingKey = key.body.ping_key as string;
    await kit.pushCheck({ config: { slug: 'nightly-backup' } });
    const other = await api.createTenant('Other');
    const otherKey = await api.request('POST', '/v1/settings/ping-key', { key: other.key });

    for (const guess of ['a', 'b', 'c']) {
      kit.expectText(await api.request('GET', `/ping/${pingKey}/${guess}`), 404, 'not found');
    }
    const blocked = await api.request('GET', `/ping/${pingKey}/d`);
    expect(blocked.status).toBe(429);
    expect(blocked.headers['content-type']).toMatch(/^text\/plain/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // A right guess is refused alike: a guesser learns nothing past the budget.
    expect((await api.request('GET', `/ping/${pingKey}/nightly-backup`)).status).toBe(429);
    kit.expectText(await api.request('GET', `/ping/${otherKey.body.ping_key}/e`), 404, 'not found');
  });
});

describe('the ping URL rate by default', () => {
  it("is below an API key's, and off with it", () => {
    const config = loadConfig('local', {});
    expect(config.pingRateLimit?.perSecond).toBeLessThan(config.rateLimit?.perSecond ?? 0);
    expect(config.pingRateLimit?.burst).toBeLessThan(config.rateLimit?.burst ?? 0);
    expect(loadConfig('local', { VIGIL_RATE_LIMIT_RPS: '0' }).pingRateLimit).toBeUndefined();
  });
});
