import type { Clock } from '../platform/clock.ts';
import type { Feature } from '../platform/feature.ts';
import type { Table } from '../store/table.ts';
import type { PurgeStep, PurgeSteps } from './purge-consumer.ts';

/**
 * The purge steps as the features declare them (a face's `purge`, lib/platform/feature.ts): each
 * feature purges its own items of a deleted entity, action or partition, and the purge consumer
 * runs the steps of every feature in the list (lib/features/list.ts), so lib/purge and the change
 * feed's composition name none of them.
 */

/** What a feature's purge steps are built over: the table, the clock and the runtime's artifact store. */
export interface PurgePorts {
  table: Table;
  clock: Clock;
  /** The runtime's artifact store (browser checks' screenshots): absent, none are kept. */
  artifacts?: unknown;
}

/** A feature's steps, per purge job kind. */
type FeaturePurgeSteps = { readonly [K in keyof PurgeSteps]?: PurgeSteps[K] };

/**
 * Declares a feature's purge steps (its face's `purge`) over the host's ports, or over `P` when
 * given (the artifact store's own type: `purgeOf<{ artifacts?: ArtifactStore }>(…)`).
 */
export const purgeOf =
  <P extends Partial<PurgePorts> = PurgePorts>(steps: (ports: NoInfer<P>) => FeaturePurgeSteps) =>
  (ports: NoInfer<P>): FeaturePurgeSteps =>
    steps(ports);

/** Every feature's steps of each job kind, in the list's order; a kind no feature purges has none. */
export function purgeStepsOf(features: readonly Feature[], ports: PurgePorts): Required<PurgeSteps> {
  const steps: Required<PurgeSteps> = { entity: [], action: [], partition: [] };
  for (const feature of features) {
    if (!feature.purge) continue;
    const declared = (feature.purge as (ports: PurgePorts) => FeaturePurgeSteps)(ports);
    for (const [kind, own] of Object.entries(declared)) {
      if (!(kind in steps))
        throw new Error(`${feature.name} declares purge steps of an unknown job kind ${kind}`);
      (steps[kind as keyof PurgeSteps] as PurgeStep<never>[]).push(...(own as PurgeStep<never>[]));
    }
  }
  return steps;
}
