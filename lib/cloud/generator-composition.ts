import type { CloudBase } from './cloud-base.ts';
import { createGenerator } from './workers/generator.ts';
import { createGeneratorHandler } from './workers/generator-handler.ts';

/** The generator function: the due-work generator over the probe and action queues; no routes. */
export function composeGeneratorFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  return {
    powertools: base.powertools,
    /** The generator Lambda's handler; needs VIGIL_PROBE_QUEUE_URL, and VIGIL_ACTION_QUEUE_URL once a scheduled action is due. */
    generatorHandler() {
      const generator = createGenerator({
        table,
        queue: base.probeQueue('the generator enqueues there'),
        clock,
        dueShards: config.dueShards,
        logger,
        actionQueue: base.actionQueue,
      });
      return createGeneratorHandler({ generator, clock, logger });
    },
  };
}

// What the functions take of this composition's parts too (edge/ and workers/ are private).
export type { GeneratorCounts } from './workers/generator.ts';
