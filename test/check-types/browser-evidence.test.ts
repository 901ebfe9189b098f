import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newEntity } from '../checks/check-fixtures.ts';
import { type ApiResponse, type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { type BrowserSite, startBrowserSite } from './support/browser-site.ts';

/**
 * A failing browser check's evidence in the local runtime, with Debian's Chromium against a site on
 * 127.0.0.1: its run stores a screenshot of the `screenshot` step and of the failing step as files
 * in the data dir, the result lists them (never their bytes), the artifact route answers the JPEG
 * to the owner's keys (read-only too) and 404 to another tenant, and the check's purge deletes them.
 * A draft of the same check (POST /v1/checks/run-draft) answers its screenshots inline and stores none.
 */

let api: LocalHarness;
let site: BrowserSite;
let entityId: string;
let checkId: string;
let run: ApiResponse;
/** The run's result as the check's results list it (a browser check's run is dispatched: 202). */
let result: { id: string; success: boolean; details: { artifacts: { url: string }[] } };

/** A browser check whose steps fail at the third: the login page's title is not "Account". */
const failingCheck = () => ({
  entity_id: entityId,
  check_type: 'browser',
  interval_seconds: 300,
  timeout_ms: 30_000,
  config: {
    steps: [
      { action: 'goto', url: `${site.origin}/login` },
      { action: 'screenshot' },
      { action: 'assert', subject: 'title', text: 'Account' },
    ],
  },
});

/** An artifact route's answer with its bytes (the harness's request reads text). */
const readArtifact = async (url: string, key: string) => {
  const res = await fetch(`${api.local.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
};

beforeAll(async () => {
  site = await startBrowserSite();
  api = await startLocalHarness({ scheduler: false, env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  entityId = await newEntity(api);
  const created = await api.request('POST', '/v1/checks', {
    key: api.adminKey,
    body: failingCheck(),
  });
  expect(created.status, created.text).toBe(201);
  checkId = created.body.id;
  run = await api.request('POST', `/v1/checks/${checkId}/run`, { key: api.adminKey });
  expect(run.status, run.text).toBe(202);
  // A browser run is a Chromium for seconds (minutes under load): the wait bounds a hang only.
  result = await vi.waitFor(
    async () => {
      const listed = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
      const [first] = listed.body.results ?? [];
      if (!first) throw new Error('no result yet');
      return first;
    },
    { timeout: 120_000, interval: 250 },
  );
}, 180_000);
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('a failing browser check', () => {
  it('records a result whose details list its screenshots, not their bytes', async () => {
    expect(result.success).toBe(false);
    const url = (step: number) => `/v1/checks/${checkId}/results/${result.id}/artifacts/step-${step}.jpg`;
    expect(result.details.artifacts).toEqual([
      { step: 2, kind: 'screenshot', name: 'step-2.jpg', url: url(2) },
      { step: 3, kind: 'screenshot', name: 'step-3.jpg', url: url(3) },
    ]);

    const listed = await api.request('GET', `/v1/checks/${checkId}/results`, { key: api.adminKey });
    expect(listed.body.results[0].details.artifacts).toEqual(result.details.artifacts);
    // A JPEG's base64 starts with /9j/: no screenshot is inside the stored result.
    expect(listed.text).not.toContain('/9j/');
    expect(listed.text.length).toBeLessThan(4000);
  });

  it("serves each screenshot as a JPEG to the owner's keys, read-only included", async () => {
    const readOnly = await api.request('POST', '/v1/auth/keys', {
      key: api.adminKey,
      body: { label: 'viewer', is_read_only: true },
    });
    expect(readOnly.status, readOnly.text).toBe(201);

    for (const key of [api.adminKey, readOnly.body.key as string]) {
      for (const artifact of result.details.artifacts) {
        const read = await readArtifact(artifact.url, key);
        expect(read.status).toBe(200);
        expect(read.type).toBe('image/jpeg');
        expect([...read.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
      }
    }
  });

  it('answers 404 to another tenant, and for a name or a result the check has none of', async () => {
    const other = await api.createTenant('Intruder');
    const [artifact] = result.details.artifacts;
    if (!artifact) throw new Error('the result lists no screenshot');

    expect((await readArtifact(artifact.url, other.key)).status).toBe(404);
    expect((await readArtifact(artifact.url.replace('step-2.jpg', 'step-9.jpg'), api.adminKey)).status).toBe(
      404,
    );
    expect(
      (await readArtifact(artifact.url.replace(result.id, `res_${'0'.repeat(26)}`), api.adminKey)).status,
    ).toBe(404);
  });

  it("deletes the check's screenshots with its purge", async () => {
    const dir = join(api.dataDir, 'artifacts', api.tenantId, checkId);
    expect(existsSync(dir)).toBe(true);

    const deleted = await api.request('DELETE', `/v1/checks/${checkId}`, { key: api.adminKey });
    expect(deleted.status, deleted.text).toBe(204);
    await api.drainChanges();

    expect(existsSync(dir)).toBe(false);
  });
});

describe('a failing browser draft', () => {
  it("answers each step's outcome and its screenshots inline, and stores nothing", async () => {
    const checksNow = async () =>
      (await api.request('GET', `/v1/checks?entity_id=${entityId}`, { key: api.adminKey })).body;
    const artifactsNow = () => {
      const dir = join(api.dataDir, 'artifacts', api.tenantId);
      return existsSync(dir) ? readdirSync(dir) : [];
    };
    const [checksBefore, artifactsBefore] = [await checksNow(), artifactsNow()];

    const draft = await api.request('POST', '/v1/checks/run-draft', {
      key: api.adminKey,
      body: failingCheck(),
    });

    expect(draft.status, draft.text).toBe(200);
    expect(draft.body).toMatchObject({
      stored: false,
      outcome: 'down',
      details: {
        steps: [
          { action: 'goto', outcome: 'passed' },
          { action: 'screenshot', outcome: 'passed' },
          { action: 'assert', outcome: 'failed', error: expect.any(String) },
        ],
      },
    });
    const shots = draft.body.screenshots as { step: number; jpeg: string }[];
    expect(shots.map((s) => s.step)).toEqual([2, 3]);
    for (const shot of shots)
      expect([...Buffer.from(shot.jpeg, 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(draft.body.screenshots_left_out).toBeUndefined();
    expect(draft.body.details.artifacts).toBeUndefined();
    expect(await checksNow()).toEqual(checksBefore);
    expect(artifactsNow()).toEqual(artifactsBefore);
  });
});
