import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../lib/local/runtime.ts';
import { loadPreviousRuns, type PreviousRuns, previousRuns } from '../fixtures/previous-release-runs/load.ts';
import { startOnPreviousData, type UpgradedRuntime } from '../support/previous-data-dir.ts';

/**
 * An upgrade keeps the runs the previous release started (issue 78): the data directory of
 * 43122143 (test/fixtures/previous-release-runs) holds two started runs, one with a run id, as
 * that release stored them (open-run pointers without `run_id`, no `run` item). Opened by this
 * release, each end forms its run from that start: started at the old start, ended now, success.
 */

const RID = '5f0c3b7e-2a1d-4c8e-9b6f-0d4e8a1c7b21';

describe('upgrading a data directory of the release before runs (SQLite)', () => {
  let dump: PreviousRuns;
  let started: UpgradedRuntime | undefined;
  let runtime: LocalRuntime;

  const get = async (path: string, auth = true) => {
    const res = await fetch(`${runtime.url}${path}`, {
      headers: auth ? { authorization: `Bearer ${dump.api_key}` } : {},
    });
    expect(res.status, path).toBeLessThan(300);
    const text = await res.text();
    return text.startsWith('{') ? JSON.parse(text) : text;
  };

  beforeAll(async () => {
    dump = previousRuns();
    started = await startOnPreviousData('vigil-upgrade-runs-', (table) => loadPreviousRuns(table, dump));
    runtime = started.runtime;
  });
  afterAll(async () => {
    await started?.stop();
  });

  it('ends both runs the previous release started, each timed from its old start', async () => {
    // The old open runs: run id (or none) -> when it started.
    const started = new Map(
      dump.items
        .filter((item) => item.entity === 'ping_run')
        .map((item) => [(item.rid as string | undefined) ?? null, item.started_at as string]),
    );
    expect(started.size).toBe(2);
    // The run without an id ends first: any result clears the check's started mark, which is what
    // an end without a run id looks for (a run id finds its start by itself).
    await get(`/ping/${dump.ping_token}`, false);
    await get(`/ping/${dump.ping_token}?rid=${RID}`, false);
    const { runs } = await get(`/v1/checks/${dump.check_id}/runs`);
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run).toMatchObject({ outcome: 'success', flags: [], started_at: started.get(run.rid ?? null) });
      expect(run.duration_ms).toBe(Date.parse(run.ended_at) - Date.parse(run.started_at));
    }
    expect(runs.map((r: { rid?: string }) => r.rid ?? null).sort()).toEqual([RID, null].sort());
  });
});
