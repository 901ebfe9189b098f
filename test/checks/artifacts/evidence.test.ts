import { describe, expect, it } from 'vitest';
import type { ArtifactStore } from '../../../lib/checks/artifacts/artifact-store.ts';
import { detailsWithEvidence, slotScope } from '../../../lib/checks/results/evidence.ts';
import { probedResult } from '../../../lib/cloud/browser-function.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';

/**
 * What a browser result's details say of its evidence, in both runtimes: the local recorder stores
 * a run's trace beside its screenshots (application/zip) and lists it; the cloud worker lists what
 * the browser function stored by the names on the `probed` job; either way a trace that was left
 * out is said in `details.trace_left_out`.
 */

const job = {
  tenant_id: 'tnt_01JAAAAAAAAAAAAAAAAAAAAAAA',
  check_id: 'chk_01JBBBBBBBBBBBBBBBBBBBBBBB',
  kind: 'probe' as const,
  slot_ms: 1_764_000_000_000,
};
const scope = slotScope(job);
const base = `/v1/checks/${job.check_id}/results/${scope.resultId}/artifacts`;

/** An artifact store in memory: each put's key and content type. */
function memoryStore() {
  const puts: [string, string][] = [];
  const store: ArtifactStore = {
    async putIfAbsent(key, _bytes, contentType) {
      puts.push([key, contentType]);
    },
    async get() {
      return undefined;
    },
    async deletePrefix() {
      return 0;
    },
  };
  return { store, puts };
}

const outcome = { success: false, status_code: 0, latency_ms: 10, error_message: 'step 1 (goto): failed' };

describe('detailsWithEvidence', () => {
  it('stores the trace as application/zip beside the screenshots and lists it without a step', async () => {
    const { store, puts } = memoryStore();

    const details = await detailsWithEvidence({ artifacts: store, logger: silentLogger }, scope, {
      ...outcome,
      details: { steps: [] },
      screenshots: [{ step: 0, jpeg: Buffer.from('jpeg').toString('base64') }],
      trace: Buffer.from('PK').toString('base64'),
    });

    expect(puts).toEqual([
      [`${job.tenant_id}/${job.check_id}/${scope.resultId}/step-1.jpg`, 'image/jpeg'],
      [`${job.tenant_id}/${job.check_id}/${scope.resultId}/trace.zip`, 'application/zip'],
    ]);
    expect(details).toEqual({
      steps: [],
      artifacts: [
        { step: 1, kind: 'screenshot', name: 'step-1.jpg', url: `${base}/step-1.jpg` },
        { kind: 'trace', name: 'trace.zip', url: `${base}/trace.zip` },
      ],
    });
  });

  it('says why a trace was left out, with a store or without one', async () => {
    const { store } = memoryStore();
    const leftOut = { ...outcome, details: { steps: [] }, trace_left_out: 'the trace (12.0 MB) was larger' };

    for (const artifacts of [store, undefined])
      expect(await detailsWithEvidence({ artifacts, logger: silentLogger }, scope, leftOut)).toEqual({
        steps: [],
        trace_left_out: 'the trace (12.0 MB) was larger',
      });
  });
});

describe('probedResult', () => {
  it('lists the stored trace by its name and says why one was left out', () => {
    const result = { ...outcome, checked_at: '2025-11-24T16:00:00.000Z', details: { steps: [] } };

    expect(probedResult({ kind: 'probed', job, result, artifacts: ['trace.zip'] }).details).toEqual({
      steps: [],
      artifacts: [{ kind: 'trace', name: 'trace.zip', url: `${base}/trace.zip` }],
    });
    expect(probedResult({ kind: 'probed', job, result, trace_left_out: 'too large' }).details).toEqual({
      steps: [],
      trace_left_out: 'too large',
    });
    expect(probedResult({ kind: 'probed', job, result }).details).toEqual({ steps: [] });
  });
});
