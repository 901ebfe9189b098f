import { cellResultsPage } from '../../lib/checks/cells/cell-result-items.ts';
import { getCheckDefinition } from '../../lib/checks/check-items.ts';
import { latestResults } from '../../lib/checks/items/result-items.ts';
import { type CostFigures, type MeterSnapshot, priceSnapshot } from './cost-prices.ts';
import { withMeteredPipeline } from './metered-pipeline.ts';

/**
 * The pull-check path of the cloud runtime under the cost meter (./metered-pipeline.ts: generator,
 * probe queue, worker, stream function, notifier and action worker over DynamoDB Local with a fake
 * clock; targets a loopback HTTP server). One warm-up minute takes
 * every check from unknown to up unmetered; then two metered phases of `cycles` minutes each on the
 * same checks: `healthy` keeps every target at 200, `flapping` alternates 500 and 200 so every
 * result changes its check's state (and its entity's: one entity per check).
 * Shared by test/cost/pull-check-cost.test.ts and `npm run bench -- --only cost`.
 */

export type CostMode = 'healthy' | 'flapping';

export interface CostRunOptions {
  endpoint: string;
  checks: number;
  cycles: number;
  onProgress?: (line: string) => void;
}

export interface CostRun {
  mode: CostMode;
  checks: number;
  cycles: number;
  /** Probe jobs the worker ran in the metered minutes. */
  results: number;
  /** Results each check gained in the metered minutes, as stored (lowest and highest). */
  resultsPerCheck: { min: number; max: number };
  snapshot: MeterSnapshot;
  /** Stream records the event-source filter passes to the stream function (metered minutes). */
  keptStreamRecords: number;
  perResult: CostFigures;
  /** The partition keys that took the most write units in one (wall-clock) second, hottest first. */
  hottestKeys: { pk: string; second: number; wcu: number }[];
  /** Wall-clock seconds of the metered minutes. */
  seconds: number;
}

export async function runPullCheckCost(options: CostRunOptions): Promise<Record<CostMode, CostRun>> {
  const { endpoint, checks, cycles } = options;
  const progress = options.onProgress ?? (() => {});
  return withMeteredPipeline(
    { endpoint, name: 'cost', logLevelVariable: 'COST_LOG_LEVEL' },
    async (pipeline) => {
      const { meter, minute } = pipeline;
      const tenantId = pipeline.tenant.id;
      // Setup (unmetered): one entity per check, each check down at its first failure.
      const checkIds = await pipeline.createHttpChecks(checks, {
        slug: 'service',
        name: 'Service',
        entityName: 'Service',
      });
      progress(`${checks} checks created`);

      /** Results stored per check: push checks' own items, pull checks' entries in their cell's slots. */
      const stored = async () => {
        const definitions = await Promise.all(
          checkIds.map((id) => getCheckDefinition(pipeline.peek, tenantId, id)),
        );
        const cellIds = [...new Set(definitions.flatMap((d) => (d?.cell ? [d.cell.cell_id] : [])))];
        const perCheck = new Map<string, number>();
        for (const cellId of cellIds) {
          const page = await cellResultsPage(pipeline.peek, cellId, { limit: 100 });
          for (const slot of page.slots)
            for (const entry of slot.results) perCheck.set(entry.c, (perCheck.get(entry.c) ?? 0) + 1);
        }
        return Promise.all(
          definitions.map(async (d, i) =>
            d?.cell
              ? (perCheck.get(d.id) ?? 0)
              : (await latestResults(pipeline.peek, checkIds[i] ?? '', 100)).length,
          ),
        );
      };
      // Warm-up (unmetered): every check and its entity go from unknown to up, two transitions
      // each, all of which must have reached the stream function before the healthy phase starts
      // counting. Should a minute end short of them (in the full suite once: 390 of 400 after
      // 120 s, never alone; likely the shared DynamoDB Local database's slowdown late in the run,
      // since gone: CONTRIBUTING.md "The test suite"), another unmetered minute runs, up to three,
      // and the error says how many results each check had.
      pipeline.resetStreamRecords();
      let minutes = 0;
      for (;;) {
        await minute(minutes, 200);
        minutes += 1;
        try {
          await pipeline.awaitStreamRecords(2 * checks, 60_000);
          break;
        } catch (err) {
          if (minutes < 3) continue;
          const perCheck: Record<number, number> = {};
          for (const n of await stored()) perCheck[n] = (perCheck[n] ?? 0) + 1;
          throw new Error(`${(err as Error).message}; checks by results stored: ${JSON.stringify(perCheck)}`);
        }
      }
      progress(`warm-up done in ${minutes} minute(s): every check up`);
      /** `cycles` metered minutes; flapping: 500 then 200 and so on, so every result changes state. */
      const phase = async (mode: CostMode): Promise<CostRun> => {
        const before = await stored();
        meter.reset();
        meter.resume();
        const startedMs = Date.now();
        pipeline.resetStreamRecords();
        for (let c = 1; c <= cycles; c += 1) {
          await minute(minutes, mode === 'flapping' && c % 2 === 1 ? 500 : 200);
          minutes += 1;
          progress(`${mode}: minute ${c} of ${cycles}`);
        }
        const snapshot = meter.snapshot();
        const hottestKeys = meter.hottestKeys(5);
        const seconds = (Date.now() - startedMs) / 1000;
        const gained = (await stored()).map((n, i) => n - (before[i] ?? 0));
        // Per check result: a cell's message carries up to 100.
        const results = gained.reduce((sum, n) => sum + n, 0);
        return {
          mode,
          checks,
          cycles,
          results,
          resultsPerCheck: { min: Math.min(...gained), max: Math.max(...gained) },
          snapshot,
          keptStreamRecords: pipeline.streamRecords(),
          perResult: priceSnapshot(snapshot, results),
          hottestKeys,
          seconds,
        };
      };
      const healthy = await phase('healthy');
      const flapping = await phase('flapping');
      meter.detach();
      return { healthy, flapping };
    },
  );
}
