import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, bothRuntimes, startLambdaHarness } from '../support/api-harness.ts';
import { inProcessBrowserFunction } from '../support/browser-function.ts';
import { type BrowserSite, loginSteps, SITE_PASSWORD, startBrowserSite } from './support/browser-site.ts';

/**
 * Browser checks through the API, in both runtimes: created with secret variables read `********`
 * (outside any cell: each slot runs alone), a shorter interval than a minute refused, a step whose
 * fields do not fit its action refused with its field; in the cloud a draft's run goes to the draft
 * browser function (the browser function runs saved checks: test/cloud/browser-flow.test.ts).
 */
describe.each(bothRuntimes)('browser checks ($runtime runtime)', ({ runtime, start }) => {
  let api: ApiHarness;
  let entityId: string;
  const create = (config: unknown, interval_seconds = 300) =>
    api.request('POST', '/v1/checks', {
      key: api.adminKey,
      body: { entity_id: entityId, check_type: 'browser', interval_seconds, config },
    });
  const config = {
    variables: { password: { value: 'pa55-W0rd-xyzzy', secret: true } },
    steps: [
      { action: 'goto', url: 'http://127.0.0.1:9/login' },
      { action: 'fill', selector: '#password', value: '{{variables.password}}' },
      { action: 'assert', subject: 'title', text: 'Account' },
    ],
  };

  beforeAll(async () => {
    api = await start({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true', VIGIL_FIRST_PROBE: 'false' } });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('creates one outside any cell, its secrets read ********', async () => {
    const created = await create(config);

    expect(created.status, created.text).toBe(201);
    const stored = await getCheckDefinition(api.table, api.tenantId, String(created.body.id), {
      consistent: true,
    });
    expect(stored?.id).toBe(created.body.id);
    expect(stored?.cell).toBeUndefined();
    expect(created.body).toMatchObject({
      check_type: 'browser',
      name: 'Browser 127.0.0.1:9 (3 steps)',
      config: { variables: { password: { value: '********', secret: true } } },
    });
    expect(created.text).not.toContain('pa55-W0rd-xyzzy');
  });

  it('refuses an interval under a minute and a step whose fields do not fit its action', async () => {
    const often = await create(config, 30);
    const misfit = await create({ steps: [{ action: 'goto', url: 'http://127.0.0.1:9/', selector: '#x' }] });
    const unnamed = await create({
      steps: [{ action: 'goto', url: 'http://127.0.0.1:9/' }, { action: 'click' }],
    });
    const twoWaits = await create({
      steps: [
        { action: 'goto', url: 'http://127.0.0.1:9/' },
        { action: 'wait_for', text: 'a', url: 'b' },
      ],
    });

    expect(often.status).toBe(400);
    expect(misfit.status).toBe(400);
    expect(unnamed.status).toBe(400);
    expect(twoWaits.status).toBe(400);
    if (runtime === 'local') {
      expect(often.text).toContain('interval_seconds');
      expect(misfit.body).toMatchObject({
        details: [{ path: 'config.steps.0.selector', message: 'Unknown field: selector.' }],
      });
      expect(unnamed.body.details).toEqual([
        { path: 'config.steps.1.selector', message: expect.any(String) },
      ]);
      expect(twoWaits.body.details).toEqual([
        { path: 'config.steps.1.action', message: 'wait_for takes exactly one of selector, text or url.' },
      ]);
    }
  });
});

// Locally a draft runs in the app's browser runner (test/check-types/browser-evidence.test.ts); in
// the cloud the api function hands it to the draft browser function. Describes of the cloud runtime
// alone, not skipped cases.
describe('a browser check’s draft in the cloud', () => {
  let api: ApiHarness;
  let site: BrowserSite;
  let entityId: string;
  const draftFunction = inProcessBrowserFunction('vigil-draft-browser');
  const draft = (password: string) =>
    api.request('POST', '/v1/checks/run-draft', {
      key: api.adminKey,
      body: {
        entity_id: entityId,
        check_type: 'browser',
        interval_seconds: 300,
        timeout_ms: 60_000,
        config: {
          variables: { password: { value: SITE_PASSWORD, secret: true } },
          steps: [...loginSteps(site.origin, password), { action: 'screenshot' }],
        },
      },
    });
  const jpegs = (shots: { jpeg: string }[]) =>
    shots.map((shot) => [...Buffer.from(shot.jpeg, 'base64').subarray(0, 3)]);

  beforeAll(async () => {
    site = await startBrowserSite();
    api = await startLambdaHarness({
      env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true', VIGIL_FIRST_PROBE: 'false' },
      draftBrowserInvoke: draftFunction.invoke,
    });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await site?.close();
  });

  it('runs in the draft browser function: each step’s outcome and its screenshots inline, its secret nowhere', async () => {
    const run = await draft('{{variables.password}}');

    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({ stored: false, outcome: 'up', success: true });
    expect(run.body.details.steps).toHaveLength(6);
    expect(run.body.details.steps.every((step: { outcome: string }) => step.outcome === 'passed')).toBe(true);
    expect(run.body.screenshots.map((shot: { step: number }) => shot.step)).toEqual([6]);
    expect(jpegs(run.body.screenshots)).toEqual([[0xff, 0xd8, 0xff]]);
    expect(run.text).not.toContain(SITE_PASSWORD);
    // Asked for its screenshots, and cut to what fits API Gateway's 29 s (the draft asked 60 s).
    expect(draftFunction.payloads.at(-1)).toMatchObject({
      screenshots: true,
      check: { check_type: 'browser', timeout_ms: 15_000 },
    });
  });

  it('names the failing step, with its screenshot, and stores nothing', async () => {
    const before = (await api.request('GET', '/v1/checks', { key: api.adminKey })).body;

    const run = await draft('wrong');

    expect(run.status, run.text).toBe(200);
    expect(run.body).toMatchObject({ stored: false, outcome: 'down', success: false });
    expect(run.body.details.steps[4]).toMatchObject({ action: 'wait_for', outcome: 'failed' });
    expect(run.body.screenshots.map((shot: { step: number }) => shot.step)).toEqual([5]);
    expect(jpegs(run.body.screenshots)).toEqual([[0xff, 0xd8, 0xff]]);
    expect((await api.request('GET', '/v1/checks', { key: api.adminKey })).body).toEqual(before);
  });
});

describe('a browser check’s draft in the cloud without a draft browser function', () => {
  let api: ApiHarness;
  let entityId: string;
  const config = { steps: [{ action: 'goto', url: 'http://127.0.0.1:9/login' }] };

  beforeAll(async () => {
    api = await startLambdaHarness({
      env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true', VIGIL_FIRST_PROBE: 'false' },
    });
    entityId = await newEntity(api);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
  });

  it('is refused: the api function has no browser', async () => {
    const draft = await api.request('POST', '/v1/checks/run-draft', {
      key: api.adminKey,
      body: { entity_id: entityId, check_type: 'browser', interval_seconds: 300, config },
    });

    expect(draft.status, draft.text).toBe(400);
    expect(draft.body).toMatchObject({
      details: [
        { path: 'check_type', message: expect.stringContaining('cannot be run as a draft in the cloud') },
      ],
    });
  });
});
