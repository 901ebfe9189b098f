import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReportsLambda } from '../../functions/reports.ts';
import { createCloudBase } from '../../lib/cloud/cloud-base.ts';
import { composeReportsFunction } from '../../lib/cloud/reports-composition.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { newCheck, newEntity, quietPushCheck, record } from '../checks/check-fixtures.ts';
import { lambdaContext } from '../support/lambda-context.ts';
import { lambdaMailRig, localMailRig, type MailRig } from '../support/mail-rigs.ts';

/**
 * The report e-mail end to end on both runtimes: a person turns weekly reports on through the API,
 * results and an incident land in the week, and after the week ends the sweep mails the report
 * once (the local runtime's sweep through a real SMTP server; the cloud's reports function over
 * DynamoDB Local through SES), its List-Unsubscribe link turns reports off without a key.
 */

const PUBLIC_URL = 'https://vigil.example.com';
const FROM = 'Vigil <reports@vigil.example.com>';
const HOUR = 3_600_000;
const OPTED_IN = Date.parse('2026-11-16T09:00:00.000Z');
const IN_WEEK = Date.parse('2026-11-18T12:00:00.000Z');
const AFTER_WEEK = Date.parse('2026-11-23T00:20:00.000Z');

interface Rig extends MailRig {
  /** One sweep as the runtime runs it (the local timer's, or one invocation of the reports function). */
  sweep(): Promise<void>;
}

const options = { startMs: OPTED_IN, from: FROM, publicUrl: PUBLIC_URL };

async function localRig(): Promise<Rig> {
  const rig = await localMailRig(options);
  return {
    ...rig,
    sweep: async () => {
      await rig.api.app.reports.sweep();
    },
  };
}

async function lambdaRig(): Promise<Rig> {
  const rig = await lambdaMailRig(options);
  // The reports function's own composition and middy edge, over the harness's table.
  const config = loadConfig('cloud', { ...rig.env, VIGIL_TABLE_NAME: rig.api.tableName });
  const handler = createReportsLambda(
    composeReportsFunction(createCloudBase(config, { dynamodb: rig.api.dynamodb, clock: rig.clock })),
  );
  return {
    ...rig,
    sweep: async () => {
      await handler({}, lambdaContext('reports'));
    },
  };
}

describe.each([
  { runtime: 'local', open: localRig },
  { runtime: 'lambda', open: lambdaRig },
])('report e-mails ($runtime runtime)', ({ open }) => {
  let rig: Rig;
  let email = '';
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await rig.api.request(method, path, { key: rig.api.adminKey, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const reports = () => rig.mails().filter((m) => m.subject.includes('report'));

  beforeAll(async () => {
    rig = await open();
    email = (await req('GET', '/v1/me')).user.email;
    await req('PUT', '/v1/me/report', { report: 'weekly', time_zone: 'UTC' });
    rig.clock.set(IN_WEEK);
    const entityId = await newEntity(rig.api, { blueprint: 'payments', name: 'Checkout API' });
    const check = await newCheck(
      rig.api,
      quietPushCheck(entityId, { failure_threshold: 1, name: 'Checkout ping' }),
    );
    await req('POST', '/v1/status-pages', {
      slug: 'acme-status',
      title: 'Acme status',
      entity_ids: [entityId],
    });
    for (const [offset, success] of [
      [0, true],
      [1, false],
      [3, true],
      [4, true],
    ] as const) {
      rig.clock.set(IN_WEEK + offset * HOUR);
      await record(rig.api, check, { success, latency_ms: 120, checkedAtMs: IN_WEEK + offset * HOUR });
      await rig.api.drainChanges();
    }
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('sends nothing while the week is not over (the one before ended before the person asked)', async () => {
    await rig.sweep();
    expect(reports()).toEqual([]);
  });

  it('mails the week’s report once after it ends: uptime by blueprint and page, the incident and its duration, MTTR, the slowest check', async () => {
    rig.clock.set(AFTER_WEEK);
    await rig.sweep();
    await rig.sweep(); // a redelivered invocation, or the next tick

    expect(reports()).toHaveLength(1);
    const [mail] = reports();
    expect(mail?.to).toEqual([email]);
    expect(mail?.subject).toContain('weekly report, 16 Nov 2026 – 22 Nov 2026 (UTC)');
    expect(mail?.text).toContain('payments: 75.00%');
    expect(mail?.text).toContain('Acme status: 75.00%');
    expect(mail?.text).toMatch(/Checkout API: opened 18 Nov 2026, 13:00, 2 h, resolved 18 Nov 2026, 15:00/);
    expect(mail?.text).toContain('mean time to resolve: 2 h');
    expect(mail?.text).toMatch(/Checkout ping \(Checkout API\): \d+ ms/);
    expect(mail?.text).toContain(`Open the console: ${PUBLIC_URL}/`);
    expect(mail?.html).not.toMatch(/<img|<script|src=/i);
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });

  it('turns reports off by the mail’s List-Unsubscribe link, without a key, and then sends none', async () => {
    const header = reports()[0]?.headers.get('list-unsubscribe') ?? '';
    const path = /^<https:\/\/vigil\.example\.com(\/v1\/reports\/unsubscribe\/[\w-]+)>$/.exec(header)?.[1];
    expect(path, header).toBeDefined();
    const page = await rig.api.request('GET', path ?? '');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post">');
    expect((await req('GET', '/v1/me/report')).report).toBe('weekly'); // a link scanner's GET changes nothing

    const oneClick = await rig.api.request('POST', path ?? '', {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBe(200);
    expect(oneClick.text).toContain('Reports stopped');
    expect(await req('GET', '/v1/me/report')).toEqual({ report: 'off', time_zone: 'UTC' });

    rig.clock.set(AFTER_WEEK + 7 * 24 * HOUR);
    await rig.sweep();
    expect(reports()).toHaveLength(1);
  });

  it('answers a token it did not seal with the invalid-link page', async () => {
    const forged = await rig.api.request(
      'POST',
      '/v1/reports/unsubscribe/AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyAhIiMk',
    );
    expect(forged.status).toBe(404);
    expect(forged.text).toContain('This link does not work');
  });
});
