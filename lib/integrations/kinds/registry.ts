import * as z from 'zod';
import { alertmanagerKind } from './alertmanager.ts';
import { cloudwatchKind } from './cloudwatch.ts';
import type { IntegrationKindDefinition } from './definition.ts';
import { genericKind } from './generic.ts';
import { grafanaKind } from './grafana.ts';
import { pagerdutyKind } from './pagerduty.ts';

/** Every integration kind, by its name (DECISIONS.md "Outside alerts (wave 6)", the API document's order). */
export const INTEGRATION_KINDS = {
  alertmanager: alertmanagerKind,
  pagerduty: pagerdutyKind,
  grafana: grafanaKind,
  cloudwatch: cloudwatchKind,
  generic: genericKind,
} satisfies Record<string, IntegrationKindDefinition>;

export type IntegrationKind = keyof typeof INTEGRATION_KINDS;

/**
 * A request body for each kind (`POST` and `PUT /v1/integrations`): the fields every kind takes,
 * and the kind's own settings field (required where the kind has one, refused elsewhere), as one
 * union on `kind` so the API document states it.
 */
export function integrationBodySchema<S extends z.ZodRawShape>(common: S) {
  const [first, ...rest] = Object.entries(INTEGRATION_KINDS).map(
    ([kind, definition]: [string, IntegrationKindDefinition]) =>
      z.strictObject({
        kind: z.literal(kind),
        ...common,
        ...(definition.settings ? { [definition.settings.field]: definition.settings.schema } : {}),
      }),
  );
  if (!first) throw new Error('no integration kinds');
  return z.discriminatedUnion('kind', [first, ...rest]);
}
