import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { type BrowserSite, startBrowserSite } from './support/browser-site.ts';
import { secretSpellings } from './support/trace-secrets.ts';

/**
 * A browser check's Playwright trace in the local runtime (issue 57), Debian's Chromium against a
 * site on 127.0.0.1 whose password is a secret variable with awkward characters: with `trace:
 * "always"` the run's trace is stored beside the result (a file under the data dir), listed in its
 * details and served as a zip to download; no entry of it holds the secret in any form a trace
 * writes it (a fill's value, the form-encoded and JSON request bodies, the DOM snapshots' input
 * values, the page's URL), while it stays a trace Playwright's viewer opens. With `on_failure`, a
 * run that passes keeps none.
 */

const PASSWORD = 'p@ss w0rd&"<x>';

let api: LocalHarness;
let site: BrowserSite;
let entityId: string;

/** Logs in through the form (form-encoded), through the JSON login, and visits a URL carrying the secret. */
const loginSteps = () => [
  { action: 'goto', url: `${site.origin}/login` },
  { action: 'fill', selector: '#user', value: 'ada' },
  { action: 'fill', selector: '#password', value: '{{variables.password}}' },
  { action: 'click', selector: '#go' },
  { action: 'wait_for', text: 'Welcome, ada' },
  { action: 'goto', url: `${site.origin}/login-json` },
  { action: 'fill', selector: '#user', value: 'ada' },
  { action: 'fill', selector: '#password', value: '{{variables.password}}' },
  { action: 'click', selector: '#go' },
  { action: 'wait_for', text: 'Signed in' },
  { action: 'goto', url: `${site.origin}/account?token={{variables.password}}` },
];

/** Creates a browser check with these steps and trace option, runs it once, and answers its result. */
async function runCheck(trace: string, steps: object[]) {
  const created = await api.request('POST', '/v1/checks', {
    key: api.adminKey,
    body: {
      entity_id: entityId,
      check_type: 'browser',
      interval_seconds: 3600,
      timeout_ms: 45_000,
      config: { variables: { password: { value: PASSWORD, secret: true } }, steps, trace },
    },
  });
  expect(created.status, created.text).toBe(201);
  const checkId = String(created.body.id);
  const run = await api.request('POST', `/v1/checks/${checkId}/run`, { key: api.adminKey });
  expect(run.status, run.text).toBe(202);
  // A browser run is a Chromium for seconds (minutes under load): the wait bounds a hang only.
  const result = await vi.waitFor(
    async () => {
      const listed = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
      const [first] = listed.body.results ?? [];
      if (!first) throw new Error('no result yet');
      return first as {
        id: string;
        success: boolean;
        error_message: string;
        details: { artifacts?: { kind: string; name: string; url: string }[] };
      };
    },
    { timeout: 150_000, interval: 250 },
  );
  return { checkId, result };
}

beforeAll(async () => {
  site = await startBrowserSite({ password: PASSWORD });
  api = await startLocalHarness({ scheduler: false, env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  entityId = await newEntity(api);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('a browser check with trace "always"', () => {
  let checkId: string;
  let result: Awaited<ReturnType<typeof runCheck>>['result'];
  let zip: { status: number; headers: Headers; bytes: Buffer };

  beforeAll(async () => {
    ({ checkId, result } = await runCheck('always', loginSteps()));
    const trace = result.details.artifacts?.find((a) => a.kind === 'trace');
    const res = await fetch(`${api.local.url}${trace?.url}`, {
      headers: { authorization: `Bearer ${api.adminKey}` },
    });
    zip = { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }, 180_000);

  it('passes and lists its trace beside the result, served as a zip to download', () => {
    expect(result.success, result.error_message).toBe(true);
    expect(site.requests).toEqual(expect.arrayContaining(['POST /login', 'POST /api/login', 'GET /account']));
    expect(result.details.artifacts).toEqual([
      {
        kind: 'trace',
        name: 'trace.zip',
        url: `/v1/checks/${checkId}/results/${result.id}/artifacts/trace.zip`,
      },
    ]);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toBe('attachment; filename="trace.zip"');
    expect(existsSync(join(api.dataDir, 'artifacts', api.tenantId, checkId, result.id, 'trace.zip'))).toBe(
      true,
    );
  });

  it('holds the run’s trace events, the secret masked where it was typed', () => {
    const entries = unzipSync(new Uint8Array(zip.bytes));
    const events = Buffer.from(entries['trace.trace'] ?? []).toString('utf8');
    expect(events).toContain('"method":"fill"');
    expect(events).toContain('"value":"********"');
    expect(Object.keys(entries).some((name) => name.startsWith('resources/'))).toBe(true);
  });

  it('holds the secret in no entry, in no form a trace writes it', () => {
    const entries = unzipSync(new Uint8Array(zip.bytes));
    const spellings = secretSpellings(PASSWORD);
    const found = Object.entries(entries).flatMap(([name, bytes]) => {
      const text = Buffer.from(bytes).toString('latin1');
      const utf8 = Buffer.from(bytes).toString('utf8');
      return spellings.filter((s) => text.includes(s) || utf8.includes(s)).map((s) => `${name}: ${s}`);
    });
    expect(found).toEqual([]);
    // Its distinctive part, in any spelling that keeps it.
    expect(Object.keys(entries).filter((name) => Buffer.from(entries[name] ?? []).includes('w0rd'))).toEqual(
      [],
    );
  });
});

describe('a browser check with trace "on_failure"', () => {
  it('keeps no trace of a run that passes', async () => {
    const { checkId, result } = await runCheck('on_failure', loginSteps().slice(0, 5));

    expect(result.success, result.error_message).toBe(true);
    expect(result.details.artifacts).toBeUndefined();
    expect(existsSync(join(api.dataDir, 'artifacts', api.tenantId, checkId))).toBe(false);
  }, 180_000);
});
