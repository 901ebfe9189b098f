import type * as z from 'zod';
import { type ConfiguredProbeJob, defineCheckType } from '../contract/definition.ts';
import { scriptLabel } from '../contract/fields.ts';
import { type MultistepConfig, multistepInput, multistepStored, multistepView } from './multistep-schema.ts';
import { secretVariableHooks } from './secret-variables.ts';

/** What a multistep probe runs: the config with the common probe fields. */
export type MultistepProbeJob = ConfiguredProbeJob<'multistep', MultistepConfig>;

/** "api.example.com (3 steps)": the first step's host and the number of steps. */
const label = (config: MultistepConfig) => scriptLabel(config.steps[0]?.url, config.steps.length);

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
  defaultName: (config) => `Multistep ${label(config)}`,
  targetLabel: (config) => `multistep ${label(config)}`,
});
