import { runProbeJob } from '../../lib/checks/probe-job.ts';
import { type DueClaim, generateShard } from '../../lib/checks/services/generator.ts';
import type { Clock } from '../../lib/platform/clock.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { ApiHarness } from './api-harness.ts';

/**
 * The dead man's switch driven by hand on a fake clock, as both runtimes do on their tick: the
 * generator finds the deadlines due through the due index, and the job runner records them.
 */
export function deadmanTicks(api: () => ApiHarness, clock: Clock) {
  /** One generator pass over every shard, collecting the claims due before the next second. */
  const dueClaims = async () => {
    const claims: DueClaim[] = [];
    const { table, app } = api();
    for (let shard = 0; shard < app.config.dueShards; shard += 1) {
      await generateShard(shard, clock.now() + 1000, {
        table,
        nowMs: clock.now(),
        dueShards: app.config.dueShards,
        logger: silentLogger,
        dispatch: async (page: DueClaim[]) => {
          claims.push(...page);
        },
      });
    }
    return claims;
  };

  return {
    dueClaims,
    /** Claims and runs every due job at once; answers `<kind>:<status>` of each. */
    async tick(): Promise<string[]> {
      const ran: string[] = [];
      for (const claim of await dueClaims()) {
        await api().table.transact([claim.claim]);
        ran.push(`${claim.job.kind}:${(await runProbeJob(claim.job, api().app.jobRunner)).status}`);
      }
      return ran;
    },
  };
}
