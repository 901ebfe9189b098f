import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createCloudApp } from '../../lib/cloud/http-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { channel, sampleAlert } from '../notify/channels/alert-fixture.ts';
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

describe('email in the HTTP functions', () => {
  const ses = mockClient(SESv2Client);
  afterEach(() => ses.reset());
  const config = loadConfig('cloud', { VIGIL_LOG_LEVEL: 'silent', VIGIL_EMAIL_FROM: 'alerts@example.com' });
  const email = channel('email', { to: ['ops@example.com'] });

  it('the api function sends test messages to email channels through SES', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const cloud = createCloudApp(config);
    expect(await cloud.app.senders.send(email, sampleAlert())).toMatchObject({ ok: true });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(1);
    cloud.sqs.destroy();
  });

  it('a function composed without email (mcp, status-stream: no ses:SendEmail) calls no SES', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const cloud = createCloudApp(config, {}, { sendsEmail: false });
    expect(await cloud.app.senders.send(email, sampleAlert())).toMatchObject({ ok: false });
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    cloud.sqs.destroy();
  });
});
