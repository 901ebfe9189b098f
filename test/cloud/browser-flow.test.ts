import { GetObjectCommand } from '@aws-sdk/client-s3';
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
 * worker records it: result with its steps, state, transitions. A failing run's screenshot goes to
 * the artifacts bucket (fauxqs's S3) from the browser function, its name (never its bytes) rides
 * the result back, and the artifact route serves it through the api function. A redelivered result
 * records nothing twice; a redelivered browser job writes its screenshot only if absent.
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
  details?: {
    steps?: { action: string; outcome: string }[];
    artifacts?: { step: number; kind: string; name: string; url: string }[];
  };
}
const results = async (): Promise<StoredResult[]> =>
  (await adminCall(h, 'GET', `/v1/checks/${checkId}/results`)).results;
const step = (ms: number) => vi.setSystemTime(Date.now() + ms);
/** The If-None-Match header of every PutObject the S3 client sent (fauxqs ignores it; S3 answers 412). */
const putConditions: (string | undefined)[] = [];

beforeAll(async () => {
  site = await startBrowserSite();
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  h.sqs.s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand') {
        const headers = (args.request as { headers: Record<string, string> }).headers;
        putConditions.push(headers['if-none-match']);
      }
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordPutConditions' },
  );
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
    expect(result?.details?.artifacts).toBeUndefined();
    expect(putConditions).toEqual([]);
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
    // The message names the screenshot; its bytes stay in the bucket (a JPEG's base64 starts /9j/).
    expect(JSON.parse(probed).body).toMatchObject({
      kind: 'probed',
      job: { check_id: checkId },
      artifacts: ['step-5.jpg'],
    });
    expect(probed).not.toContain('/9j/');
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
    // The failing step's screenshot, listed as a local run lists it and served by the api function.
    expect(latest?.details?.artifacts).toEqual([
      { step: 5, kind: 'screenshot', name: 'step-5.jpg', url: expect.stringMatching(/^\/v1\/checks\//) },
    ]);
    const url = latest?.details?.artifacts?.[0]?.url ?? '';
    expect(url).toBe(`/v1/checks/${checkId}/results/${(latest as { id?: string }).id}/artifacts/step-5.jpg`);
    const image = await h.request('GET', url, { key: h.adminKey });
    expect(image.status, image.text).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    // API Gateway's payload: a binary body base64-encoded; a JPEG starts FF D8.
    expect([...Buffer.from(image.text, 'base64').subarray(0, 2)]).toEqual([0xff, 0xd8]);
    const other = await h.createTenant();
    expect((await h.request('GET', url, { key: other.key })).status).toBe(404);
    expect(putConditions).toEqual(['*']);
    expect((await adminCall(h, 'GET', `/v1/checks/${checkId}`)).state).toBe('down');
    const transitions = (await adminCall(h, 'GET', `/v1/checks/${checkId}/transitions`)).transitions;
    expect(transitions.map((t: { to_state: string }) => t.to_state)).toEqual(['down', 'up']);
  }, 60_000);

  it("writes a redelivered browser job's screenshot only if absent and records nothing twice", async () => {
    const before = await results();
    const [failed] = before;
    const job = h.browserSqs.sentBodies().at(-1) ?? '';
    const key = `${h.tenantId}/${checkId}/${(failed as { id?: string }).id}/step-5.jpg`;
    const stored = await h.sqs.s3.send(new GetObjectCommand({ Bucket: 'vigil-artifacts', Key: key }));
    const bytes = Buffer.from((await stored.Body?.transformToByteArray()) ?? []);

    // The browser job again, as a second delivery of it: Chromium runs it again.
    await h.sqs.sqs.send(new SendMessageCommand({ QueueUrl: h.browserSqs.url, MessageBody: job }));
    await h.runBrowserJobs();
    await h.runProbeJobs();

    expect(bytes.length).toBeGreaterThan(0);
    expect(await results()).toEqual(before);
    // Each put of the key asked for a first write only: S3 refuses the second with 412, which the store takes as stored.
    expect(putConditions).toEqual(['*', '*']);
    const image = await h.request('GET', failed?.details?.artifacts?.[0]?.url ?? '', { key: h.adminKey });
    expect(image.status).toBe(200);
  }, 60_000);
});
