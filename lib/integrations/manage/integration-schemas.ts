import * as z from 'zod';
import { type EntityRule, entityRulesSchema } from '../ingest/entity-rules.ts';
import { SEVERITIES, type Severity } from '../kinds/incoming.ts';
import { type IntegrationKind, integrationBodySchema } from '../kinds/registry.ts';

/** The requests of /v1/integrations and /v1/outside-alerts (DECISIONS.md "Outside alerts (wave 6)"). */

const common = {
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .meta({ description: 'What the console and messages call it', example: 'Prometheus (prod)' }),
  enabled: z
    .boolean()
    .default(true)
    .meta({ description: 'A disabled integration answers its senders 410 and stores nothing' }),
  entity_rules: entityRulesSchema.default([]).meta({
    description:
      'In order, the first whose `match` holds names the entity (`blueprint/slug`, `{{labels.x}}` filled from the alert); an alert no rule places lands on the integration’s own entity',
  }),
  severity_map: z
    .record(z.string().min(1).max(50), z.enum(SEVERITIES))
    .refine((m) => Object.keys(m).length <= 50, 'At most 50 words.')
    .default({})
    .meta({
      description: 'The sender’s severity words (any case) and the severity each means',
      example: { P1: 'critical' },
    }),
};

/** A request's integration: the common fields, and a kind's own settings field where it has one. */
export interface IntegrationBody {
  kind: IntegrationKind;
  name: string;
  enabled: boolean;
  entity_rules: EntityRule[];
  severity_map: Record<string, Severity>;
  [settingsField: string]: unknown;
}

// The union is built from the registry, whose kinds' settings fields TypeScript cannot name.
export const integrationBody = integrationBodySchema(common) as unknown as z.ZodType<IntegrationBody>;

export const integrationParams = z.strictObject({ id: z.string().min(1).max(64) });
