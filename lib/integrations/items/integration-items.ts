import * as z from 'zod';
import { ALERT_SEVERITIES } from '../../domain/states.ts';
import { tenantItems } from '../../store/child-items.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { tenantItemKeys } from '../../store/partitions.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * Owner of `integration` and `integration_token` (DECISIONS.md "Outside alerts (wave 6)"): a
 * tenant's integrations, in the tenant partition under `INTEG#<int_id>` (purged with the tenant),
 * and each one's ingest token as a lookup item of its own (`INTEGTOKEN#<sha256>`), what an ingest
 * request reads first. Only the token's SHA-256 is stored, as for API keys; the lookup is written,
 * replaced and deleted in the same transactions as the integration.
 */

/** Integrations one tenant may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_INTEGRATIONS_PER_TENANT = 50;

export const INTEGRATION_KIND_NAMES = [
  'alertmanager',
  'pagerduty',
  'grafana',
  'cloudwatch',
  'generic',
] as const;

const entityRuleRecord = z.object({ match: z.record(z.string(), z.string()), entity: z.string() });

const integrationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  kind: z.enum(INTEGRATION_KIND_NAMES),
  enabled: z.boolean(),
  entity_rules: z.array(entityRuleRecord),
  severity_map: z.record(z.string(), z.enum(ALERT_SEVERITIES)),
  /** The kind's own settings (the generic kind's paths), or null. */
  settings: z.record(z.string(), z.unknown()).nullable(),
  /** The integration's own entity (blueprint `integration`): where an alert that names no entity lands. */
  entity_id: z.string(),
  token_hash: z.string(),
  /** The token's first characters, shown to tell tokens apart. */
  token_prefix: z.string(),
  /** cloudwatch: the SNS topic whose subscription it confirmed (messages of another are refused). */
  sns_topic_arn: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type IntegrationRecord = z.infer<typeof integrationSchema>;

const PREFIX = 'INTEG#';

const integration = defineItem({
  type: itemType('integration'),
  schema: integrationSchema,
  ...tenantItemKeys(PREFIX, '<int_id>'),
});

const integrations = tenantItems(integration, {
  key: (tenant_id: string, id: string) => ({ tenant_id, id }),
  prefix: PREFIX,
  maxPerTenant: MAX_INTEGRATIONS_PER_TENANT,
});

const tokenLookupSchema = z.object({
  tenant_id: z.string(),
  integration_id: z.string(),
  token_hash: z.string(),
});

const integrationToken = defineItem({
  type: itemType('integration_token'),
  schema: tokenLookupSchema,
  key: (k: { token_hash: string }) => ({ pk: `INTEGTOKEN#${k.token_hash}`, sk: 'LOOKUP' }),
  docKey: { token_hash: '<sha256 of token>' },
});

const lookupOf = (record: IntegrationRecord) => ({
  tenant_id: record.tenant_id,
  integration_id: record.id,
  token_hash: record.token_hash,
});

/** One integration of the tenant (consistent), or undefined. */
export const getIntegration = (table: Table, tenantId: string, id: string) =>
  integrations.get(table, tenantId, id);

/** Every integration of the tenant, oldest first. */
export const listIntegrations = (table: Table, tenantId: string) => integrations.list(table, tenantId);

/** The integration an ingest token names (its lookup, then the integration), or undefined. */
export async function integrationByTokenHash(
  table: Table,
  hash: string,
): Promise<IntegrationRecord | undefined> {
  const lookup = await integrationToken.get(table, { token_hash: hash }, { consistent: true });
  if (!lookup) return undefined;
  const found = await integrations.get(table, lookup.tenant_id, lookup.integration_id);
  // A token rotated away between the two reads names nothing.
  return found?.token_hash === hash ? found : undefined;
}

/** The writes of a new integration and its token's lookup. */
export function integrationCreatedOps(record: IntegrationRecord): WriteOp[] {
  return [integrations.createdOp(record), integrationToken.put(lookupOf(record), { kind: 'itemNotExists' })];
}

/** The writes of a changed integration over `readVersion`; a new token replaces the old one's lookup. */
export function integrationReplacedOps(record: IntegrationRecord, previous: IntegrationRecord): WriteOp[] {
  const ops = [integrations.replacedOp(record, previous.version)];
  if (record.token_hash !== previous.token_hash)
    ops.push(
      integrationToken.delete(lookupOf(previous)),
      integrationToken.put(lookupOf(record), { kind: 'itemNotExists' }),
    );
  return ops;
}

/** The writes that delete an integration and its token's lookup. */
export function integrationDeletedOps(record: IntegrationRecord): WriteOp[] {
  return [integrations.deletedOp(record.tenant_id, record.id), integrationToken.delete(lookupOf(record))];
}
