import * as z from 'zod';
import { INTEGRATION_KIND_NAMES, type IntegrationRecord } from '../items/integration-items.ts';
import type { OutsideAlertRecord } from '../items/outside-alert-items.ts';
import { PAYLOAD_OUTCOMES, type PayloadRecord } from '../items/payload-log-items.ts';
import { SEVERITIES } from '../kinds/incoming.ts';
import { INTEGRATION_KINDS } from '../kinds/registry.ts';

/** The public shapes of integrations and outside alerts (docs/integrations.md). */

export const publicIntegrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(INTEGRATION_KIND_NAMES),
  enabled: z.boolean(),
  entity_id: z
    .string()
    .meta({ description: 'The integration’s own entity: where alerts its rules place nowhere land' }),
  entity_rules: z.array(z.object({ match: z.record(z.string(), z.string()), entity: z.string() })),
  severity_map: z.record(z.string(), z.enum(SEVERITIES)),
  generic: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'The generic kind’s paths; null for the others' }),
  token_prefix: z
    .string()
    .meta({ description: 'The ingest token’s first characters (the token itself is shown once)' }),
  ingest_url: z.string().nullable().meta({
    description:
      'Where senders post: with the token in its path when the answer carries the token (create, rotation); the pagerduty kind’s /v2/enqueue always',
  }),
  token: z
    .string()
    .optional()
    .meta({ description: 'The ingest token, in the answers of create and rotation only' }),
  routing_key: z.string().optional().meta({
    description: 'pagerduty: the Events API v2 routing key (the token), when the answer carries it',
  }),
  sns_topic_arn: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const integrationListSchema = z.object({ integrations: z.array(publicIntegrationSchema) });

/** An integration as answered; `token` only in the answers that made one. */
export function publicIntegration(
  record: IntegrationRecord,
  origin: string | null,
  token?: string,
): z.output<typeof publicIntegrationSchema> {
  const enqueue = INTEGRATION_KINDS[record.kind].routingKey === true;
  const ingestUrl =
    origin === null
      ? null
      : enqueue
        ? `${origin}/v2/enqueue`
        : token === undefined
          ? null
          : `${origin}/in/${token}`;
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    enabled: record.enabled,
    entity_id: record.entity_id,
    entity_rules: record.entity_rules,
    severity_map: record.severity_map,
    generic: record.settings,
    token_prefix: record.token_prefix,
    ingest_url: ingestUrl,
    ...(token === undefined ? {} : { token, ...(enqueue ? { routing_key: token } : {}) }),
    sns_topic_arn: record.sns_topic_arn,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export const publicOutsideAlertSchema = z.object({
  id: z.string(),
  integration_id: z.string(),
  dedup_key: z.string(),
  entity_id: z.string(),
  status: z.enum(['triggered', 'acknowledged', 'resolved']),
  severity: z.enum(SEVERITIES),
  summary: z.string(),
  source: z.string().nullable(),
  labels: z.record(z.string(), z.string()),
  links: z.array(z.object({ href: z.string(), text: z.string() })),
  first_at: z.string(),
  last_at: z.string(),
  resolved_at: z.string().nullable(),
  count: z.number().int(),
  unmatched: z
    .object({ rule: z.number().int().nullable(), named: z.string().nullable(), why: z.string() })
    .nullable(),
});

export const outsideAlertListSchema = z.object({
  alerts: z.array(publicOutsideAlertSchema),
  next_cursor: z.string().nullable(),
});

export function publicOutsideAlert(record: OutsideAlertRecord): z.output<typeof publicOutsideAlertSchema> {
  const { tenant_id: _t, sender_at: _s, version: _v, ...rest } = record;
  return rest;
}

export const publicPayloadSchema = z.object({
  seq: z.number().int().meta({ description: 'The request’s number in the integration’s log (from 1)' }),
  received_at: z.string(),
  outcome: z.enum(PAYLOAD_OUTCOMES),
  detail: z.string(),
  excerpt: z.string().meta({ description: 'The body’s first 2 KB (a routing key masked)' }),
  truncated: z.boolean(),
});

export const payloadListSchema = z.object({ payloads: z.array(publicPayloadSchema) });

export function publicPayload(record: PayloadRecord): z.output<typeof publicPayloadSchema> {
  const { integration_id: _i, ...rest } = record;
  return rest;
}
