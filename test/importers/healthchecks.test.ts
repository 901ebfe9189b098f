import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { importHealthchecks } from '../../lib/importers/healthchecks.ts';
import { envRef } from '../../lib/importers/import-common.ts';
import { ImportError } from '../../lib/importers/importer.ts';
import { requestSchemaProblems } from './convert-validation.ts';
import { type Closable, healthchecksServer, KEY, READ_ONLY_KEY } from './healthchecks-server.ts';

const servers: Closable[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

const ENV = {
  HC_OPS_SLACK_URL: 'https://hooks.slack.com/services/T0/B0/abc',
  HC_OPS_EMAIL_TO: 'ops@example.com',
  HC_HEALTHCHECKS_PD_3_ROUTING_KEY: 'b'.repeat(32),
};

describe('the Healthchecks importer', () => {
  it('reads checks and integrations with the X-Api-Key header and converts them', async () => {
    const hc = await healthchecksServer(servers);
    const { document, unmapped } = await importHealthchecks({ url: `${hc.url}/`, apiKey: KEY });

    expect(hc.requests).toEqual([
      { path: '/api/v3/checks/', key: KEY },
      { path: '/api/v3/channels/', key: KEY },
    ]);
    expect(requestSchemaProblems(document, ENV)).toEqual([]);
    expect(document.entities).toEqual([
      {
        blueprint: 'healthchecks',
        slug: 'nightly-backup',
        name: 'Nightly backup',
        fields: { tags: 'prod db', description: 'pg_dump to S3' },
      },
      { blueprint: 'healthchecks', slug: 'queue-worker', name: 'Queue worker' },
      {
        blueprint: 'healthchecks',
        slug: 'weekly-report',
        name: 'Weekly report',
        fields: { tags: 'reports' },
      },
    ]);
    expect(document.channels).toEqual([
      { name: 'Ops Slack', channel_type: 'slack', config: { url: envRef('HC_OPS_SLACK_URL') } },
      { name: 'Ops Email', channel_type: 'email', config: { to: [envRef('HC_OPS_EMAIL_TO')] } },
      {
        name: 'healthchecks-pd-3',
        channel_type: 'pagerduty',
        config: { routing_key: envRef('HC_HEALTHCHECKS_PD_3_ROUTING_KEY'), region: 'us' },
      },
    ]);
    const [nightly, worker, weekly] = document.checks as Record<string, unknown>[];
    expect(nightly).toEqual({
      entity: 'healthchecks/nightly-backup',
      name: 'Nightly backup',
      check_type: 'push',
      failure_threshold: 1,
      config: {
        slug: 'nightly-backup',
        schedule: { cron: '15 3 * * *', timezone: 'Europe/Berlin' },
        grace_seconds: 900,
      },
      policy: { channels: [{ channel: 'Ops Slack' }, { channel: 'healthchecks-pd-3' }] },
    });
    // A period of an hour and 5 minutes' grace: Vigil's grace_seconds is the whole silence allowed.
    expect(worker).toMatchObject({
      check_type: 'push',
      failure_threshold: 1,
      interval_seconds: 3600,
      config: { slug: 'queue-worker', grace_seconds: 3900 },
      enabled: false,
    });
    expect(weekly).toMatchObject({
      failure_threshold: 1,
      interval_seconds: 86_400,
      config: { grace_seconds: 90_000 },
    });
    expect(unmapped).toEqual([
      'integration "Ops Slack" (slack): the API does not show its settings; set HC_OPS_SLACK_URL in the environment of plan and apply',
      'integration "Ops Email" (email): the API does not show its settings; set HC_OPS_EMAIL_TO in the environment of plan and apply',
      'integration "0a1b2c3d-0000-4000-8000-000000000001" (pd): the API does not show its settings; set HC_HEALTHCHECKS_PD_3_ROUTING_KEY in the environment of plan and apply',
      'integration "Zulip stream" (zulip): Vigil has no zulip channel type',
      'check "Queue worker": manual_resume (a paused check ignores pings) has no Vigil equivalent',
      'check "Queue worker": methods "POST" (POST only); Vigil\'s ping URLs take HEAD, GET and POST',
      'check "Weekly report": its OnCalendar schedule "Mon *-*-* 09:00:00" has no Vigil equivalent (cron only); imported with a 1-day period',
      'check "Weekly report": filter_subject, success_kw (filtering email pings) has no Vigil equivalent',
      'ping URLs: Vigil gives every push check its own ping URL (/ping/<uuid>, and /ping/<ping key>/<slug> for checks with a slug); after apply, read them in the console or with GET /v1/checks/{id} and point each job at its new URL',
    ]);
    expect(JSON.stringify({ document, unmapped })).not.toContain(KEY);
  });

  it('converts the checks of a read-only key and says the integrations need the read-write key', async () => {
    const hc = await healthchecksServer(servers);
    const { document, unmapped } = await importHealthchecks({ url: hc.url, apiKey: READ_ONLY_KEY });

    expect((document.checks as unknown[]).length).toBe(3);
    expect(document.channels).toBeUndefined();
    expect(unmapped[0]).toBe(
      'integrations: not readable with this API key (a read-only key); use the read-write key to import them',
    );
    expect((document.checks as Record<string, unknown>[])[0]?.policy).toBeUndefined();
  });

  it('refuses a wrong key with a clear error naming the 401', async () => {
    const hc = await healthchecksServer(servers);
    const attempt = importHealthchecks({ url: hc.url, apiKey: 'wrong' });
    await expect(attempt).rejects.toThrow(ImportError);
    await expect(importHealthchecks({ url: hc.url, apiKey: 'wrong' })).rejects.toThrow(
      /refused the API key \(401\).*Settings → API Access/,
    );
  });

  it('gives up on a request that gets no answer within its timeout', async () => {
    // The server reads the request and never answers: only the importer's timeout ends the wait.
    const server = createServer(() => {});
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(importHealthchecks({ url, apiKey: KEY, timeoutMs: 200 })).rejects.toThrow(
      /cannot be reached \(no answer in 0\.2 s\)/,
    );
  });

  it('refuses a site that does not answer as Healthchecks does, and one that is not a URL', async () => {
    const server = createServer((_req, res) => res.end('<html>hello</html>'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(importHealthchecks({ url, apiKey: KEY })).rejects.toThrow(/not a JSON object/);
    const json = createServer((_req, res) => res.end('{"hello": "world"}'));
    json.listen(0, '127.0.0.1');
    await once(json, 'listening');
    servers.push(json);
    const other = `http://127.0.0.1:${(json.address() as AddressInfo).port}`;
    await expect(importHealthchecks({ url: other, apiKey: KEY })).rejects.toThrow(
      "Healthchecks' answer to /api/v3/checks/ is not in the API v3 shape.",
    );
    await expect(importHealthchecks({ url: 'healthchecks.io', apiKey: KEY })).rejects.toThrow(
      /http:\/\/ or https:\/\//,
    );
  });
});
