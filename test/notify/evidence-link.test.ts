import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSite, startBrowserSite } from '../check-types/support/browser-site.ts';
import { call, createEntity, eventually, startTarget, type Target } from '../local/scheduler-helpers.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { createTlsFixtures } from '../support/tls-fixtures.ts';
import { type Receiver, startReceiver } from './channels/receiver.ts';

/**
 * A scripted check's alert links to its failing result's evidence (issue 57): the standard message
 * every human-facing channel renders carries an "Evidence" line, the console page of that result
 * (the check's page with ?result=) under VIGIL_PUBLIC_URL. Sent through the real pipeline of the
 * local runtime to Slack and ntfy receivers on 127.0.0.1; a plain http check's alert has no such line.
 * A channel's message template holds the same link in `{{evidence}}`: a browser check failing in
 * Debian's Chromium against a site on 127.0.0.1 fills it, an http check leaves it empty.
 */

const PUBLIC_URL = 'https://vigil.example.com';

let api: LocalHarness;
let receiver: Receiver;
let target: Target;
let site: BrowserSite;
let healthy = true;

beforeAll(async () => {
  const tls = createTlsFixtures();
  receiver = await startReceiver(tls.valid, 'unused');
  target = await startTarget(() => (healthy ? 200 : 503));
  site = await startBrowserSite();
  api = await startLocalHarness({
    env: {
      VIGIL_EGRESS_ALLOW: '127.0.0.0/8',
      VIGIL_ALLOW_PRIVATE_TARGETS: 'true',
      VIGIL_FIRST_PROBE: 'false',
      VIGIL_PUBLIC_URL: PUBLIC_URL,
    },
    egress: { ca: [tls.caCert] },
  });
});

afterAll(async () => {
  await api?.close();
  await receiver?.close();
  await target?.close();
  await site?.close();
});

/**
 * A check told to Slack and ntfy at `/<path>/slack` and `/<path>/ntfy`, with no cooldown, each
 * channel with `template` when one is given.
 */
async function toldCheck(
  body: Record<string, unknown>,
  path: string,
  template?: { body: string },
): Promise<string> {
  const entity = await createEntity(api);
  const check = await call(api, 'POST', '/v1/checks', 201, {
    entity_id: entity.id,
    interval_seconds: 3600,
    failure_threshold: 1,
    ...body,
  });
  await call(api, 'POST', `/v1/checks/${check.id}/policy`, 201, { cooldown_seconds: 0 });
  for (const type of ['slack', 'ntfy'])
    await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, 201, {
      channel_type: type,
      config: { url: `${receiver.origin}/${path}/${type}` },
      ...(template ? { template } : {}),
    });
  await call(api, 'POST', `/v1/checks/${check.id}/policy/channels`, 201, {
    channel_type: 'webhook',
    config: { url: `${receiver.origin}/${path}/webhook` },
  });
  return check.id;
}

/** The bodies the receiver read at `/<path>/slack` and `/<path>/ntfy`, once both came. */
const bodiesAt = (path: string) =>
  eventually(() => {
    const of = (type: string) => receiver.received.find((r) => r.path === `/${path}/${type}`);
    const [slack, ntfy] = [of('slack'), of('ntfy')];
    return slack && ntfy ? [slack.body.toString('utf8'), ntfy.body.toString('utf8')] : undefined;
  }, `the alerts at /${path}`);

/** Runs the check now (a pull check's result comes back) and answers the result's id. */
async function runNow(checkId: string): Promise<{ id: string; success: boolean }> {
  const run = await call(api, 'POST', `/v1/checks/${checkId}/run`, 200);
  return run.result;
}

describe('an alert about a scripted check going down', () => {
  it('links to the failing result’s console page in Slack’s and ntfy’s message', async () => {
    healthy = true;
    const checkId = await toldCheck(
      { check_type: 'multistep', config: { steps: [{ name: 'health', url: target.url }] } },
      'multistep',
    );
    expect((await runNow(checkId)).success).toBe(true);

    healthy = false;
    const failed = await runNow(checkId);
    expect(failed.success).toBe(false);

    const link = `${PUBLIC_URL}/checks/${checkId}?result=${failed.id}`;
    const [slack, ntfy] = await bodiesAt('multistep');
    expect(JSON.stringify(JSON.parse(slack ?? ''))).toContain(`Evidence: ${link}`);
    expect(ntfy).toContain(`Evidence: ${link}`);
    // The webhook's JSON names the result and the API page it heads, read with the tenant's key.
    const webhook = await eventually(
      () => receiver.received.find((r) => r.path === '/multistep/webhook'),
      'the webhook alert',
    );
    const { evidence } = JSON.parse(webhook.body.toString('utf8'));
    expect(evidence.result_id).toBe(failed.id);
    const page = await call(api, 'GET', evidence.results_path, 200);
    expect(page.results[0].id).toBe(failed.id);
  });

  it('gives a plain http check’s alert no evidence line', async () => {
    healthy = true;
    const checkId = await toldCheck({ check_type: 'http', target_url: target.url }, 'http');
    expect((await runNow(checkId)).success).toBe(true);

    healthy = false;
    expect((await runNow(checkId)).success).toBe(false);

    const [slack, ntfy] = await bodiesAt('http');
    expect(slack).toContain(`${PUBLIC_URL}/entities/`);
    expect(slack).not.toContain('Evidence');
    expect(ntfy).not.toContain('Evidence');
    const webhook = await eventually(
      () => receiver.received.find((r) => r.path === '/http/webhook'),
      'the webhook alert',
    );
    expect(JSON.parse(webhook.body.toString('utf8'))).not.toHaveProperty('evidence');
  });
});

describe('a channel template’s {{evidence}} field', () => {
  const template = {
    body: '{{check_name}} is {{to_state}}.{{#evidence}} Evidence: {{evidence}}{{/evidence}}',
  };

  it('holds the failing result’s console page for a browser check going down', {
    timeout: 120_000,
  }, async () => {
    const checkId = await toldCheck(
      {
        check_type: 'browser',
        name: 'Sign-in page',
        timeout_ms: 30_000,
        // Fails at its second step: the login page's title is not "Account".
        config: {
          steps: [
            { action: 'goto', url: `${site.origin}/login` },
            { action: 'assert', subject: 'title', text: 'Account' },
          ],
        },
      },
      'browser',
      template,
    );
    // A browser check's run is dispatched (202): its result comes once Chromium is done.
    await call(api, 'POST', `/v1/checks/${checkId}/run`, 202);
    const failed = await eventually(
      async () => (await call(api, 'GET', `/v1/checks/${checkId}/results`, 200)).results[0],
      'the browser run’s result',
      100_000,
    );
    expect(failed.success).toBe(false);

    const link = `${PUBLIC_URL}/checks/${checkId}?result=${failed.id}`;
    const [slack, ntfy] = await bodiesAt('browser');
    // ntfy's body: the rendered template, then the entity's console link.
    expect(ntfy?.split('\n')[0]).toBe(`Sign-in page is down. Evidence: ${link}`);
    expect(JSON.stringify(JSON.parse(slack ?? ''))).toContain(`Sign-in page is down. Evidence: ${link}`);
  });

  it('is empty for a plain http check', async () => {
    healthy = true;
    const checkId = await toldCheck(
      { check_type: 'http', name: 'Health', target_url: target.url },
      'http-template',
      template,
    );
    expect((await runNow(checkId)).success).toBe(true);

    healthy = false;
    expect((await runNow(checkId)).success).toBe(false);

    const [slack, ntfy] = await bodiesAt('http-template');
    expect(ntfy?.split('\n')[0]).toBe('Health is down.');
    expect(ntfy).not.toContain('Evidence');
    expect(slack).not.toContain('Evidence');
  });
});
