import { describe, expect, it } from 'vitest';
import { createCloudApp } from '../../lib/cloud/composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { QUEUE_URL } from './support.ts';

describe('the cloud composition root', () => {
  it('builds the generator and worker handlers, with private probe targets denied', () => {
    const cloud = createCloudApp(
      loadConfig('cloud', { VIGIL_PROBE_QUEUE_URL: QUEUE_URL, VIGIL_LOG_LEVEL: 'silent' }),
    );

    expect(cloud.generatorHandler()).toEqual(expect.any(Function));
    expect(cloud.workerHandler()).toEqual(expect.any(Function));
    expect(cloud.app.jobRunner.probe.allowPrivate).toBe(false);
    cloud.sqs.destroy();
  });

  it('refuses to build the generator without VIGIL_PROBE_QUEUE_URL', () => {
    const cloud = createCloudApp(loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent' }));

    expect(() => cloud.generatorHandler()).toThrow(/VIGIL_PROBE_QUEUE_URL/);
    cloud.sqs.destroy();
  });
});
