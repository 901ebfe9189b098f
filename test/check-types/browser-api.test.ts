import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiHarness, bothRuntimes } from '../support/api-harness.ts';

/**
 * Browser checks through the API: created locally with secret variables read `********`, a
 * shorter interval than a minute refused, a step whose fields do not fit its action refused with
 * its field, and the cloud refusing the type (it has no function that runs a browser yet).
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

  it('creates one where the runtime runs browsers, its secrets read ********, or refuses the type', async () => {
    const created = await create(config);

    if (runtime === 'lambda') {
      expect(created.status, created.text).toBe(400);
      expect(created.text).toContain('browser checks run in the local runtime only for now');
      return;
    }
    expect(created.status, created.text).toBe(201);
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
