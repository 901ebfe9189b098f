import type * as z from 'zod';
import type { ConfiguredCheckType } from './contract/definition.ts';
import { CHECK_TYPE_DEFINITIONS, type CheckType } from './registry.ts';

/**
 * How each type's `config` is shown and kept, from its definition's optional `present`, `view`
 * and `keep` (a gRPC check's metadata values are written-only), and the fewest seconds between its
 * runs (`minIntervalSeconds`). Types that declare none show and take their config as it is.
 */

type Configured = ConfiguredCheckType<object>;
const configured = (type: CheckType): Partial<Configured> =>
  CHECK_TYPE_DEFINITIONS[type] as Partial<Configured>;

/** The config as the Check responses show it. */
export function presentConfig<C extends object>(
  type: CheckType,
  config: C,
  options: { readOnly: boolean },
): C {
  const present = configured(type).present;
  return present ? (present(config, options) as C) : config;
}

/** The schema of the config the Check responses show (the API document's). */
export function configViewSchema(type: CheckType): z.ZodType {
  return configured(type).view ?? CHECK_TYPE_DEFINITIONS[type].input;
}

/**
 * The config a create's or an update's `config` stands for, before it is parsed: written-only
 * values sent back as `********` replaced by the stored ones (`stored`: none on create).
 */
export function keptConfig(
  type: CheckType,
  incoming: Record<string, unknown>,
  stored: object | undefined,
): Record<string, unknown> {
  const keep = configured(type).keep;
  return keep ? keep(incoming, stored) : incoming;
}

/** The fewest seconds between a type's runs (1 when it declares none). */
export function minIntervalSeconds(type: CheckType): number {
  return configured(type).minIntervalSeconds ?? 1;
}
