import * as z from 'zod';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import { type Generator, type GeneratorCounts, WINDOW_MS } from './generator.ts';

/**
 * The payload the schedule sends (infra/checks.ts fills it from Scheduler context attributes).
 * A retried invocation keeps its scheduled time, so it runs the window it was meant for.
 */
export const schedulerPayloadSchema = z.object({
  scheduled_time: z.iso.datetime({ offset: true }),
  execution_id: z.string().optional(),
  attempt: z.coerce.number().int().min(1).optional(),
  /** The schedule's due shards [shard_from, shard_to); absent: every shard. */
  shard_from: z.coerce.number().int().min(0).optional(),
  shard_to: z.coerce.number().int().min(1).optional(),
});

/** The generator Lambda: EventBridge Scheduler, every minute -> one generator run for that minute. */
export function createGeneratorHandler(deps: { generator: Generator; clock: Clock; logger: Logger }) {
  return async (event: unknown): Promise<GeneratorCounts> => {
    const payload = schedulerPayloadSchema.safeParse(event);
    if (!payload.success) {
      // A manual or misconfigured invocation still runs: skipping a minute would delay every check.
      deps.logger.warn('generator invoked without a scheduler payload; using the current minute', {
        issues: payload.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      });
    }
    const atMs = payload.success ? Date.parse(payload.data.scheduled_time) : deps.clock.now();
    const range =
      payload.success && payload.data.shard_from !== undefined && payload.data.shard_to !== undefined
        ? { from: payload.data.shard_from, to: payload.data.shard_to }
        : undefined;
    return deps.generator.run(Math.floor(atMs / WINDOW_MS) * WINDOW_MS, range);
  };
}
