import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSite, startBrowserSite } from '../check-types/support/browser-site.ts';
import { secretSpellings } from '../check-types/support/trace-secrets.ts';
import { adminCall, type LambdaHarness, startLambdaHarness } from '../support/api-harness.ts';

/**
 * A browser check's Playwright trace on the cloud path (issue 57), every function as deployed over
 * DynamoDB Local and fauxqs (SQS and S3), Debian's Chromium standing in for the Lambda's: with
 * `trace: "on_failure"`, a run whose last step fails has its trace masked in the runner's child,
 * put to the artifacts bucket by the browser function (a first write only, as screenshots are), its
 * name (never its bytes) on the `probed` job; the worker's result lists it and the api function
 * serves it as a zip attachment, holding the secret password in no spelling.
 */

const PASSWORD = 'p@ss w0rd&"<x>';

let site: BrowserSite;
let h: LambdaHarness;
let checkId: string;
/** The If-None-Match and tagging headers of each PutObject the S3 client sent, by key's last segment. */
const puts: [string, string | undefined, string | undefined][] = [];

beforeAll(async () => {
  site = await startBrowserSite({ password: PASSWORD });
  h = await startLambdaHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  h.sqs.s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand') {
        const request = args.request as { path: string; headers: Record<string, string> };
        const { headers } = request;
        puts.push([request.path.split('/').at(-1) ?? '', headers['if-none-match'], headers['x-amz-tagging']]);
      }
      return next(args);
    },
    { step: 'finalizeRequest', name: 'recordPuts' },
  );
  await adminCall(h, 'POST', '/v1/blueprints', { slug: 'web', name: 'Web' });
  const entity = await adminCall(h, 'POST', '/v1/blueprints/web/entities', { slug: 'shop', name: 'Shop' });
  const check = await adminCall(h, 'POST', '/v1/checks', {
    entity_id: entity.id,
    check_type: 'browser',
    interval_seconds: 3600,
    config: {
      variables: { password: { value: PASSWORD, secret: true } },
      trace: 'on_failure',
      steps: [
        { action: 'goto', url: `${site.origin}/login` },
        { action: 'fill', selector: '#user', value: 'ada' },
        { action: 'fill', selector: '#password', value: '{{variables.password}}' },
        { action: 'click', selector: '#go' },
        { action: 'wait_for', text: 'Welcome, ada' },
        { action: 'assert', subject: 'title', text: 'Dashboard' },
      ],
    },
  });
  checkId = String(check.id);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await site?.close();
});

describe('a browser check with trace "on_failure" in the cloud', () => {
  let probed: string;
  let latest: {
    id: string;
    success: boolean;
    details: { artifacts: { kind: string; name: string; url: string }[] };
  };

  it('stores a failing run’s trace from the browser function, named on the probed job', async () => {
    const run = await h.request('POST', `/v1/checks/${checkId}/run`, { key: h.adminKey });
    await h.runProbeJobs();
    await h.runBrowserJobs();
    probed = h.probeSqs.sentBodies().at(-1) ?? '';
    await h.runProbeJobs();

    expect(run.status, run.text).toBe(202);
    expect(JSON.parse(probed).body).toMatchObject({ kind: 'probed', artifacts: ['step-6.jpg', 'trace.zip'] });
    // A zip's base64 starts UEsDB: the trace's bytes stay in the bucket.
    expect(probed).not.toContain('UEsDB');
    [latest] = (await adminCall(h, 'GET', `/v1/checks/${checkId}/results`)).results;
    expect(latest.success).toBe(false);
    expect(site.requests).toContain('POST /login');
    expect(latest.details.artifacts).toEqual([
      expect.objectContaining({ kind: 'screenshot', name: 'step-6.jpg' }),
      {
        kind: 'trace',
        name: 'trace.zip',
        url: `/v1/checks/${checkId}/results/${latest.id}/artifacts/trace.zip`,
      },
    ]);
    // Tagged with the tenant's retention (30 days, a tier), which the bucket's rule expires them by.
    expect(puts).toEqual([
      ['step-6.jpg', '*', 'vigil-retention-days=30'],
      ['trace.zip', '*', 'vigil-retention-days=30'],
    ]);
  }, 120_000);

  it('serves the trace as a zip attachment holding the secret in no spelling', async () => {
    const url = latest.details.artifacts.find((a) => a.kind === 'trace')?.url ?? '';
    const read = await h.request('GET', url, { key: h.adminKey });

    expect(read.status, read.text).toBe(200);
    expect(read.headers['content-type']).toBe('application/zip');
    expect(read.headers['content-disposition']).toBe('attachment; filename="trace.zip"');
    // API Gateway's payload: a binary body base64-encoded.
    const entries = unzipSync(new Uint8Array(Buffer.from(read.text, 'base64')));
    expect(Buffer.from(entries['trace.trace'] ?? []).toString('utf8')).toContain('"method":"fill"');
    const leaks = Object.entries(entries).flatMap(([name, bytes]) =>
      [...secretSpellings(PASSWORD), 'w0rd']
        .filter((s) => Buffer.from(bytes).includes(s))
        .map((s) => `${name}: ${s}`),
    );
    expect(leaks).toEqual([]);
    const other = await h.createTenant();
    expect((await h.request('GET', url, { key: other.key })).status).toBe(404);
  });

  it('asks for a first write only when a redelivered browser job runs again, and records nothing twice', async () => {
    const before = (await adminCall(h, 'GET', `/v1/checks/${checkId}/results`)).results;
    const job = h.browserSqs.sentBodies().at(-1) ?? '';

    await h.sqs.sqs.send(new SendMessageCommand({ QueueUrl: h.browserSqs.url, MessageBody: job }));
    await h.runBrowserJobs();
    await h.runProbeJobs();

    expect(puts.filter(([name]) => name === 'trace.zip')).toEqual([
      ['trace.zip', '*', 'vigil-retention-days=30'],
      ['trace.zip', '*', 'vigil-retention-days=30'],
    ]);
    expect((await adminCall(h, 'GET', `/v1/checks/${checkId}/results`)).results).toEqual(before);
  }, 120_000);
});
