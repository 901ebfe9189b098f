import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resultTimeMs } from '../../lib/checks/results.ts';
import { newEntity } from '../checks/check-fixtures.ts';
import { type LocalHarness, startLocalHarness } from '../support/api-harness.ts';
import { type BrowserSite, startBrowserSite } from './support/browser-site.ts';

/**
 * A located browser check in the local runtime, with Debian's Chromium against a site on
 * 127.0.0.1 (docs/scripted-checks.md "From probe locations"): its `default` leg's screenshots are
 * stored under the slot's result id, listed on the default location's row (never their bytes) and
 * served by the artifact route at that row's id; the leg's failure decides the slot (quorum 1), and
 * the decided result carries that leg's steps and screenshots, as the check's page and an alert's
 * evidence read them.
 */

let api: LocalHarness;
let site: BrowserSite;
let checkId: string;

interface Row {
  id: string;
  success: boolean;
  slot_at?: string;
  details?: { steps?: { action: string; outcome: string }[]; artifacts?: { name: string; url: string }[] };
}

/** A GET that answers 200, its body. */
const read = async (path: string) => {
  const res = await api.request('GET', path, { key: api.adminKey });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** An artifact route's answer with its bytes (the harness's request reads text). */
const readArtifact = async (url: string) => {
  const res = await fetch(`${api.local.url}${url}`, { headers: { authorization: `Bearer ${api.adminKey}` } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
};

let row: Row;
let decided: Row;

beforeAll(async () => {
  site = await startBrowserSite();
  api = await startLocalHarness({ env: { VIGIL_ALLOW_PRIVATE_TARGETS: 'true' } });
  const entityId = await newEntity(api);
  const lab = await api.request('POST', '/v1/locations', {
    key: api.adminKey,
    body: { name: 'lab', kind: 'agent' },
  });
  expect(lab.status, lab.text).toBe(201);
  const created = await api.request('POST', '/v1/checks', {
    key: api.adminKey,
    body: {
      entity_id: entityId,
      check_type: 'browser',
      interval_seconds: 3600,
      timeout_ms: 30_000,
      locations: ['default', 'lab'],
      quorum: 1,
      failure_threshold: 1,
      config: {
        steps: [
          { action: 'goto', url: `${site.origin}/login` },
          { action: 'screenshot' },
          { action: 'assert', subject: 'title', text: 'Account' },
        ],
      },
    },
  });
  expect(created.status, created.text).toBe(201);
  checkId = created.body.id;
  const run = await api.request('POST', `/v1/checks/${checkId}/run`, { key: api.adminKey });
  expect(run.status, run.text).toBe(202);
  // A browser run is a Chromium for seconds (minutes under load): the wait bounds a hang only.
  [row, decided] = await vi.waitFor(
    async () => {
      const [own] = (await read(`/v1/checks/${checkId}/results?location=default`)).results;
      const [slot] = (await read(`/v1/checks/${checkId}/results`)).results;
      if (!own || !slot) throw new Error('no result yet');
      return [own as Row, slot as Row];
    },
    { timeout: 120_000, interval: 250 },
  );
}, 180_000);
afterAll(async () => {
  await api?.close();
  await site?.close();
});

describe('a located browser check in the local runtime', () => {
  it("lists the default leg's screenshots on the default location's row, under its id", async () => {
    expect(row.success).toBe(false);
    const url = (step: number) => `/v1/checks/${checkId}/results/${row.id}/artifacts/step-${step}.jpg`;
    expect(row.details?.artifacts).toEqual([
      { step: 2, kind: 'screenshot', name: 'step-2.jpg', url: url(2) },
      { step: 3, kind: 'screenshot', name: 'step-3.jpg', url: url(3) },
    ]);
    expect(row.details?.steps?.map((s) => s.outcome)).toEqual(['passed', 'passed', 'failed']);
    // The row's id dates its artifacts as the slot: the retention sweep deletes them with the row.
    expect(resultTimeMs(row.id)).toBe(Date.parse(row.slot_at ?? ''));
    expect(JSON.stringify(row)).not.toContain('/9j/');
  });

  it("serves the row's screenshots through the artifact route", async () => {
    expect(row.details?.artifacts).toHaveLength(2);
    for (const artifact of row.details?.artifacts ?? []) {
      const image = await readArtifact(artifact.url);
      expect(image.status).toBe(200);
      expect(image.type).toBe('image/jpeg');
      expect([...image.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    }
  });

  it('decides the slot down from that leg, and its result carries the leg’s steps and screenshots', async () => {
    expect(decided).toMatchObject({ id: row.id, success: false });
    expect(decided.details).toEqual(row.details);
    expect((await read(`/v1/checks/${checkId}`)).state).toBe('down');
  });
});
