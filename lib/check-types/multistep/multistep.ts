import type * as z from 'zod';
import { type ConfiguredProbeJob, defineCheckType } from '../contract/definition.ts';
import { type MultistepConfig, multistepInput, multistepStored, multistepView } from './multistep-schema.ts';
import { secretVariableHooks } from './secret-variables.ts';

/** What a multistep probe runs: the config with the common probe fields. */
export type MultistepProbeJob = ConfiguredProbeJob<'multistep', MultistepConfig>;

/** "api.example.com": the first step's host (its URL may hold references after the host). */
function firstHost(config: MultistepConfig): string {
  const first = config.steps[0]?.url ?? '';
  return /^https?:\/\/(?:[^@/?#]*@)?([^/?#:]+(?::\d+)?)/i.exec(first)?.[1]?.toLowerCase() ?? '';
}

const stepCount = (config: MultistepConfig) =>
  config.steps.length === 1 ? '1 step' : `${config.steps.length} steps`;

/**
 * multistep: ordered HTTP requests (login, then the API it unlocks), each with the http check's
 * assertions and extractions later steps use; up when every step passes (./multistep-probe.ts).
 */
export const multistepCheckType = defineCheckType<'multistep', MultistepConfig>('multistep', {
  label: 'Multistep API',
  input: multistepInput,
  stored: multistepStored as z.ZodType<MultistepConfig>,
  tls: true,
  view: multistepView,
  ...secretVariableHooks,
  defaultName: (config) => `Multistep ${firstHost(config)} (${stepCount(config)})`,
  targetLabel: (config) => `multistep ${firstHost(config)} (${stepCount(config)})`,
});
