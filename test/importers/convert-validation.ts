import type * as z from 'zod';
import { createBlueprintBody, createEntityBody } from '../../lib/catalog/api/request-schemas.ts';
import { createCheckBody } from '../../lib/checks/check-input.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { windowBody } from '../../lib/maintenance/request-schemas.ts';
import { tenantChannelInputSchema } from '../../lib/notify/api-schemas/channel-config.ts';
import { policyBody } from '../../lib/notify/api-schemas/request-schemas.ts';

/**
 * Checks each object of an importer's document against the API's request schema of its create
 * route, references by name swapped for ids of the right form, and against its kind's document
 * schema (the features' configuration kinds), `${ENV}` references replaced by the values `env` gives them,
 * as plan and apply would. Answers one line per refused object (empty: all pass).
 */
export function requestSchemaProblems(
  document: Record<string, unknown>,
  env: Record<string, string>,
): string[] {
  const problems: string[] = [];
  const resolved = JSON.parse(
    JSON.stringify(document).replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const value = env[name];
      if (value === undefined) problems.push(`\${${name}} has no value in the test's env`);
      return JSON.stringify(value ?? '').slice(1, -1);
    }),
  ) as Record<string, Record<string, unknown>[] | undefined>;
  const check = (list: string, schema: z.ZodType, shape: (o: Record<string, unknown>) => unknown) => {
    for (const [index, object] of (resolved[list] ?? []).entries()) {
      const parsed = schema.safeParse(shape(object));
      if (!parsed.success) problems.push(`${list}[${index}]: ${JSON.stringify(parsed.error.issues)}`);
    }
  };
  check('blueprints', createBlueprintBody, (o) => o);
  check('entities', createEntityBody, ({ blueprint: _b, ...rest }) => rest);
  check('channels', tenantChannelInputSchema, (o) => o);
  check('checks', createCheckBody, ({ entity: _e, policy: _p, ...rest }) => ({
    ...rest,
    entity_id: 'ent_1',
  }));
  check('checks', policyBody, ({ policy }) => {
    const { channels: _c, ...rest } = (policy ?? {}) as Record<string, unknown>;
    return rest;
  });
  check('maintenance', windowBody, ({ entities, ...rest }) => ({
    ...rest,
    ...(Array.isArray(entities) ? { entity_ids: entities.map(() => `ent_${'0'.repeat(26)}`) } : {}),
  }));
  // The document's own schemas too (each kind's, derived from the same request schemas), for
  // every kind the registry holds.
  for (const [key, kind] of Object.entries(CONFIG_KINDS)) check(key, kind.schema, (o) => o);
  return problems;
}
