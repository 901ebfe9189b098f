import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BrowserSite, SITE_PASSWORD, startBrowserSite } from '../check-types/support/browser-site.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * Browser checks on the cloud path (DECISIONS.md "Scripted checks (wave 5)"), every function as
 * deployed over DynamoDB Local and a real SQS engine (fauxqs), Debian's Chromium standing in for
 * the Lambda's: the generator sends a browser check's slot to the probe queue; the worker hands it
 * to the browser queue; the browser function (its own composition: queues and a runner, no table)
 * runs it against a login site on 127.0.0.1 and sends the result back on the probe queue; the
 * worker records it: result with its steps, state, transitions. A redelivered result records
 * nothing twice.
 */

let site: BrowserSite;
let h: LambdaHarness;
let checkId: string;

const loginSteps = (password: string) => [
  { action: 'goto', url: `${site.origin}/login` },
  { action: 'fill', selector: '#user', value: 'ada' },
  { action: 'fill', selector: '#password', value: password },
  { action: 'click', selector: '#go' },
  { action: 'wait_for', url: '/account' },
  { action: 'assert', subject: 'text', text: 'Welcome, ada' },
];

interface StoredResult {
  success: boolean;
  manual?: boolean;
  error_message: string;
  details?: { steps?: { action: string; outcome: string }[] };
}
const results = async (): Promise<StoredResult[]> =>
  (await adminCall(h, 'GET', `/v1/checks/${checkId}/results`)).results;
const step = (ms: number) => vi.setSystemTime(Date.now() + ms);

beforeAll(async () => {
  site = await startBrowserSite();
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  await adminCall(h, 'POST', '/v1/blueprints', { slug: 'web', name: 'Web' });
  const entity = await adminCall(h, 'POST', '/v1/blueprints/web/entities', { slug: 'shop', name: 'Shop' });
  const check = await adminCall(h, 'POST', '/v1/checks', {
    entity_id: entity.id,
    check_type: 'browser',
    interval_seconds: 60,
    failure_threshold: 1,
    config: {
      variables: { password: { value: SITE_PASSWORD, secret: true } },
      steps: loginSteps('{{variables.password}}'),
    },
  });
  checkId = String(check.id);
  // From the next minute on, the app, fauxqs and the generator share one fake Date (Chromium's
  // child keeps real time: only Date is faked).
  vi.useFakeTimers({ toFake: ['Date'], now: Math.ceil(Date.now() / 60_000) * 60_000 + 60_000 });
}, 60_000);

afterAll(async () => {
  vi.useRealTimers();
  await h?.close();
  await site?.close();
});

describe('a browser check in the cloud', () => {
  it('runs its slot in the browser function and records the result with its steps', async () => {
    await h.runGenerator();
    step(70_000);
    await h.runProbeJobs();
    // The generator's window holds one or two of its slots (a minute and the lookahead).
    const handedOver = h.browserSqs.sentBodies().length;
    await h.runBrowserJobs();
    await h.runProbeJobs();

    expect(handedOver).toBeGreaterThanOrEqual(1);
    expect(h.eventSources.browser.invocations.map((i) => i.failed)).toEqual(
      Array.from({ length: handedOver }, () => []),
    );
    const stored = await results();
    expect(stored).toHaveLength(handedOver);
    const [result] = stored;
    expect(result).toMatchObject({ success: true, error_message: '' });
    expect(result?.details?.steps?.map((s) => [s.action, s.outcome])).toEqual([
      ['goto', 'passed'],
      ['fill', 'passed'],
      ['fill', 'passed'],
      ['click', 'passed'],
      ['wait_for', 'passed'],
      ['assert', 'passed'],
    ]);
    expect(site.requests).toContain('GET /account');
    expect((await adminCall(h, 'GET', `/v1/checks/${checkId}`)).state).toBe('up');
    // The job on the browser queue carries the secret (as a leased job does); no result or log line does.
    for (const text of [JSON.stringify(stored), h.logs.join('\n')]) expect(text).not.toContain(SITE_PASSWORD);
  }, 60_000);

  it('moves the check down when a step fails, and records a redelivered result once', async () => {
    const before = (await results()).length;
    await adminCall(h, 'PUT', `/v1/checks/${checkId}`, {
      config: {
        variables: { password: { value: 'wrong', secret: true } },
        steps: loginSteps('{{variables.password}}'),
      },
    });

    const run = await h.request('POST', `/v1/checks/${checkId}/run`, { key: h.adminKey });
    await h.runProbeJobs();
    await h.runBrowserJobs();
    const probed = h.probeSqs.sentBodies().at(-1) ?? '';
    await h.runProbeJobs();
    // The same result message again, as a second delivery of it.
    await h.sqs.sqs.send(new SendMessageCommand({ QueueUrl: h.probeSqs.url, MessageBody: probed }));
    await h.runProbeJobs();

    expect(run.status, run.text).toBe(202);
    expect(JSON.parse(probed).body).toMatchObject({ kind: 'probed', job: { check_id: checkId } });
    const [latest, ...earlier] = await results();
    expect(earlier).toHaveLength(before);
    expect(earlier.every((r) => r.success)).toBe(true);
    expect(latest).toMatchObject({ success: false, manual: true });
    expect(latest?.error_message).toMatch(/^step 5 \(wait_for\): /);
    expect(latest?.details?.steps?.map((s) => s.outcome)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'skipped',
    ]);
    expect((await adminCall(h, 'GET', `/v1/checks/${checkId}`)).state).toBe('down');
    const transitions = (await adminCall(h, 'GET', `/v1/checks/${checkId}/transitions`)).transitions;
    expect(transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['down', 'up']);
  }, 60_000);
});
