import * as z from 'zod';

/**
 * The settings of bulk calls (the configuration document's apply) (docs/api.md "Rate limits"), parsed with the rest of the
 * environment by config.ts (the only reader of process.env), kept here so that file stays small.
 */
export const bulkEnv = {
  VIGIL_CONFIG_OBJECTS_PER_SECOND: z.coerce.number().min(0).max(1_000_000).default(200),
  VIGIL_CONFIG_OBJECTS_BURST: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
};

export interface BulkSettings {
  /**
   * Each tenant's bucket of configuration objects: an apply of N changes takes N tokens, up front;
   * `undefined` when either variable is 0 (no limit).
   */
  configObjectsLimit: { perSecond: number; burst: number } | undefined;
}

/** A token bucket, or undefined (no limit) when either value is 0. */
export function positiveBucket(perSecond: number, burst: number) {
  return perSecond > 0 && burst > 0 ? { perSecond, burst } : undefined;
}

export function bulkSettings(e: {
  VIGIL_CONFIG_OBJECTS_PER_SECOND: number;
  VIGIL_CONFIG_OBJECTS_BURST: number;
}): BulkSettings {
  return {
    configObjectsLimit: positiveBucket(e.VIGIL_CONFIG_OBJECTS_PER_SECOND, e.VIGIL_CONFIG_OBJECTS_BURST),
  };
}
