import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { queryAll } from '../store/items.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Table, WriteOp } from '../store/table.ts';

/**
 * Owner of a person's paging contacts (DECISIONS.md "On-call (wave 5)"), in the tenant partition
 * (purged with the tenant):
 * - `contact_method` under `CONTACT#<usr_id>#<cmt_id>`: one way to reach the person (its kind and
 *   address), whether it is verified, and the pending verification code's SHA-256 only;
 * - `notification_rules` under `NRULES#<usr_id>`: the person's ordered rules, one item (bounded).
 */

/** Contact methods one person may keep; one more is 403 LIMIT_EXCEEDED. */
export const MAX_CONTACT_METHODS_PER_USER = 10;

/** A verification code as stored: its hash, never the code. */
const pendingCodeSchema = z.object({
  hash: z.string(),
  expires_at: z.string(),
  /** Wrong codes entered against this code so far. */
  attempts: z.number().int(),
});

const contactMethodSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  /**
   * A kind of lib/contacts/kinds/registry.ts (email, sms, voice, pushover, telegram, ntfy, console):
   * named as a string, as the item owner imports no registry; one no longer registered throws where sent.
   */
  kind: z.string(),
  /** E-mail address, E.164 number, Pushover user key, Telegram chat id, ntfy topic URL; null for console. */
  address: z.string().nullable(),
  label: z.string().nullable(),
  verified: z.boolean(),
  verified_at: z.string().nullable(),
  code: pendingCodeSchema.nullable(),
  /** When codes were sent, newest last (at most the hourly bound: the resend limit reads it). */
  sends: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a change holds only over the version it read. */
  version: z.number().int(),
});
export type ContactMethodRecord = z.infer<typeof contactMethodSchema>;

const ruleSchema = z.object({ after_seconds: z.number().int(), contact_method_id: z.string() });
export type NotificationRule = z.infer<typeof ruleSchema>;

const rulesSchema = z.object({
  tenant_id: z.string(),
  user_id: z.string(),
  rules: z.array(ruleSchema),
  updated_at: z.string(),
  version: z.number().int(),
});
export type NotificationRulesRecord = z.infer<typeof rulesSchema>;

const METHOD_PREFIX = 'CONTACT#';
const RULES_PREFIX = 'NRULES#';

const contactMethod = defineItem({
  type: itemType('contact_method'),
  schema: contactMethodSchema,
  key: (k: { tenant_id: string; user_id: string; id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${METHOD_PREFIX}${k.user_id}#${k.id}`,
  }),
  docKey: { tenant_id: '<tnt>', user_id: '<usr_id>', id: '<cmt_id>' },
});

const notificationRules = defineItem({
  type: itemType('notification_rules'),
  schema: rulesSchema,
  key: (k: { tenant_id: string; user_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `${RULES_PREFIX}${k.user_id}`,
  }),
  docKey: { tenant_id: '<tnt>', user_id: '<usr_id>' },
});

/** One contact method of the person (consistent), or undefined (another person's is undefined too). */
export function getContactMethod(
  table: Table,
  tenantId: string,
  userId: string,
  id: string,
): Promise<ContactMethodRecord | undefined> {
  return contactMethod.get(table, { tenant_id: tenantId, user_id: userId, id }, { consistent: true });
}

/** The person's contact methods, oldest first (ids are time-ordered); bounded by the per-person limit. */
export async function listContactMethods(
  table: Table,
  tenantId: string,
  userId: string,
): Promise<ContactMethodRecord[]> {
  const items = await queryAll(
    (cursor) =>
      table.query({
        pk: tenantPk(tenantId),
        sk: { op: 'beginsWith', prefix: `${METHOD_PREFIX}${userId}#` },
        consistent: true,
        cursor,
      }),
    MAX_CONTACT_METHODS_PER_USER * 2,
  );
  return contactMethod.parseAll(items);
}

/** The put of a new contact method (it must not exist yet). */
export function contactMethodCreatedOp(record: ContactMethodRecord): WriteOp {
  return contactMethod.put(record, { kind: 'itemNotExists' });
}

/** The put of a changed contact method over the version `readVersion` it was read at. */
export function contactMethodReplacedOp(record: ContactMethodRecord, readVersion: number): WriteOp {
  return contactMethod.put(record, { kind: 'compare', attr: 'version', op: '=', value: readVersion });
}

/** The delete of a contact method (`itemExists`: one already gone fails the condition). */
export function contactMethodDeletedOp(tenantId: string, userId: string, id: string): WriteOp {
  return contactMethod.delete({ tenant_id: tenantId, user_id: userId, id }, { kind: 'itemExists' });
}

/** The person's notification rules (consistent), or undefined when they never set any. */
export function getNotificationRules(
  table: Table,
  tenantId: string,
  userId: string,
): Promise<NotificationRulesRecord | undefined> {
  return notificationRules.get(table, { tenant_id: tenantId, user_id: userId }, { consistent: true });
}

/**
 * The put of the person's rules over what was read: `readVersion` undefined means none were stored
 * (the item must not exist), else the stored version must still be it.
 */
export function notificationRulesPutOp(
  record: NotificationRulesRecord,
  readVersion: number | undefined,
): WriteOp {
  return notificationRules.put(
    record,
    readVersion === undefined
      ? { kind: 'itemNotExists' }
      : { kind: 'compare', attr: 'version', op: '=', value: readVersion },
  );
}
