import { describe, expect, it } from 'vitest';
import { createCloudApp } from '../../lib/cloud/composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { QUEUE_URL } from './support.ts';

describe('the cloud composition root', () => {
  it('builds the generator and worker handlers, with private probe targets denied', async () => {
    const cloud = createCloudApp(
      loadConfig('cloud', { VIGIL_PROBE_QUEUE_URL: QUEUE_URL, VIGIL_LOG_LEVEL: 'silent' }),
    );

    expect(cloud.generatorHandler()).toEqual(expect.any(Function));
    expect(cloud.workerHandler()).toEqual(expect.any(Function));
    // Port 9 (discard) on loopback: the guard refuses before any connection is attempted.
    const { outcome } = await cloud.app.jobRunner.prober({
      check_type: 'http',
      target_url: 'http://127.0.0.1:9/',
      timeout_ms: 1000,
    });
    expect(outcome).toMatchObject({
      success: false,
      status_code: 0,
      error_message: expect.stringContaining('destination 127.0.0.1 is a loopback address'),
    });
    cloud.sqs.destroy();
  });

  it('refuses to build the generator without VIGIL_PROBE_QUEUE_URL', () => {
    const cloud = createCloudApp(loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent' }));

    expect(() => cloud.generatorHandler()).toThrow(/VIGIL_PROBE_QUEUE_URL/);
    cloud.sqs.destroy();
  });
});
