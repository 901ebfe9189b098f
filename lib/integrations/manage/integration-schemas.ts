import * as z from 'zod';
import { type EntityRule, entityRulesSchema } from '../ingest/entity-rules.ts';
import { SEVERITIES, type Severity } from '../kinds/incoming.ts';
import { type IntegrationKind, integrationBodySchema } from '../kinds/registry.ts';

/** An ingest token as Vigil makes them: 32 letters and digits (also the length of a PagerDuty routing key). */
export const ingestTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{32}$/, 'A token is 32 letters and digits (A–Z, a–z, 0–9).');

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
  token: ingestTokenSchema.optional().meta({
    description:
      'An ingest token of your own (32 letters and digits), so the URL or routing key senders already have keeps working (configuration as code, a move); left out, Vigil makes one at create and keeps the current one on replace. Write-only: never shown back',
  }),
};

/** A request's integration: the common fields, and a kind's own settings field where it has one. */
export interface IntegrationBody {
  kind: IntegrationKind;
  name: string;
  enabled: boolean;
  entity_rules: EntityRule[];
  severity_map: Record<string, Severity>;
  /** The caller's own token, when it chose one. */
  token?: string;
  [settingsField: string]: unknown;
}

// The union is built from the registry, whose kinds' settings fields TypeScript cannot name.
export const integrationBody = integrationBodySchema(common) as unknown as z.ZodType<IntegrationBody>;

/**
 * The request body with another token field: a configuration document's, which also takes a
 * `${ENV}` reference there (lib/config-doc).
 */
export const integrationBodyWithToken = (token: z.ZodType<string | undefined>) =>
  integrationBodySchema({ ...common, token }) as unknown as z.ZodType<IntegrationBody>;

export const integrationParams = z.strictObject({ id: z.string().min(1).max(64) });
