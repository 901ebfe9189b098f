import * as z from 'zod';
import { tenantItems } from '../store/child-items.ts';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantItemKeys } from '../store/partitions.ts';
import type { Table } from '../store/table.ts';

/**
 * Owner of `escalation_policy` (DECISIONS.md "On-call (wave 5)"): a tenant's ladder of steps, each
 * a delay and the targets paged when it comes (a schedule's on-call person, a person, a channel,
 * every member of a team), climbed `repeat` more times from the first step; in the tenant
 * partition under `ESCPOL#<esp_id>` (purged with the tenant). Bounded (POLICY_LIMITS), so one
 * item holds it whole.
 */

/** Bounds of one policy and of a tenant's policies (docs/on-call.md "Escalation policies"). */
export const POLICY_LIMITS = {
  perTenant: 50,
  steps: 10,
  targetsPerStep: 10,
  maxDelaySeconds: 86_400,
  maxRepeat: 5,
} as const;

const TARGET_TYPES = ['schedule', 'user', 'channel', 'team'] as const;

const targetSchema = z.object({ type: z.enum(TARGET_TYPES), id: z.string() });
export type PolicyTarget = z.infer<typeof targetSchema>;

const stepSchema = z.object({ delay_seconds: z.number().int(), targets: z.array(targetSchema) });

const policySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  steps: z.array(stepSchema),
  repeat: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type PolicyRecord = z.infer<typeof policySchema>;

const PREFIX = 'ESCPOL#';

const policy = defineItem({
  type: itemType('escalation_policy'),
  schema: policySchema,
  ...tenantItemKeys(PREFIX, '<esp_id>'),
});

const policiesStore = tenantItems(policy, {
  key: (tenant_id: string, id: string) => ({ tenant_id, id }),
  prefix: PREFIX,
  maxPerTenant: POLICY_LIMITS.perTenant,
});

/** One policy of the tenant (consistent), or undefined. */
export const getPolicy = (table: Table, tenantId: string, id: string): Promise<PolicyRecord | undefined> =>
  policiesStore.get(table, tenantId, id);

/** Every policy of the tenant, oldest first (ids are time-ordered); bounded by the per-tenant limit. */
export const listPolicies = (table: Table, tenantId: string): Promise<PolicyRecord[]> =>
  policiesStore.list(table, tenantId);

/** The put of a new policy (it must not exist yet). */
export const policyCreatedOp = policiesStore.createdOp;

/** The put of a changed policy over the version `readVersion` it was read at. */
export const policyReplacedOp = policiesStore.replacedOp;

/** The delete of a policy (`itemExists`: one already gone fails the condition). */
export const policyDeletedOp = policiesStore.deletedOp;
