import * as z from 'zod';
import { ROLES } from '../../domain/principal.ts';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import { queryAll } from '../../store/items.ts';
import { tenantItemKeys, tenantPk } from '../../store/partitions.ts';
import type { Condition, Table, WriteOp } from '../../store/table.ts';

/**
 * A tenant's users (`user`) and the uniqueness item of each one's e-mail (`user_email`), always
 * written and deleted together (docs/data-model.md "Tenancy and keys" and "Team").
 */

export const userSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * Added to by every key created for the user (keyOwnerOp): a member removal that counted the
   * user's keys fails when one was created meanwhile, and tries again.
   */
  key_serial: z.number().int().optional(),
  /** The periodic report e-mail (lib/reports): absent on users stored before it, read as off. */
  report: z.enum(['off', 'weekly', 'monthly']).optional(),
  /** The IANA time zone the report's week or month starts in; absent: UTC. */
  report_time_zone: z.string().optional(),
  /** When the report was last turned on: only periods ending after it are sent. */
  report_since: z.string().optional(),
});
export type User = z.infer<typeof userSchema>;

const USER_PREFIX = 'USER#';

const user = defineItem({
  type: itemType('user'),
  schema: userSchema,
  ...tenantItemKeys(USER_PREFIX, '<usr>'),
});

const userEmail = defineItem({
  type: itemType('user_email'),
  schema: z.object({ user_id: z.string() }),
  key: (k: { tenant_id: string; email: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `USEREMAIL#${k.email.toLowerCase()}`,
  }),
  keyOf: null,
  docKey: { tenant_id: '<tnt>', email: '<email>' },
});

/** The user, or undefined (consistent). */
export function getUser(table: Table, tenantId: string, userId: string): Promise<User | undefined> {
  return user.get(table, { tenant_id: tenantId, id: userId }, { consistent: true });
}

/** The tenant's users, by id (so oldest first; consistent). */
/** What reads a tenant's users (the team store; the operator's key command). */
export interface UserDirectory {
  listUsers(tenantId: string): Promise<User[]>;
}

export async function listUsers(table: Table, tenantId: string): Promise<User[]> {
  const items = await queryAll((cursor) =>
    table.query({
      pk: tenantPk(tenantId),
      sk: { op: 'beginsWith', prefix: USER_PREFIX },
      cursor,
      consistent: true,
    }),
  );
  return items.map((item) => user.parse(item));
}

/**
 * The puts of a new user and its e-mail item, in that order, both under `condition` when given (a
 * member accepting an invitation: `itemNotExists`, so an e-mail already a member's fails).
 */
export function userCreatedOps(record: User, condition?: Condition): WriteOp[] {
  return [
    user.put(record, condition),
    userEmail.putAt({ tenant_id: record.tenant_id, email: record.email }, { user_id: record.id }, condition),
  ];
}

/** Holds while no member of the tenant has `email` (an invitation to it). */
export function noMemberWithEmailOp(tenantId: string, email: string): WriteOp {
  return userEmail.conditionCheck({ tenant_id: tenantId, email }, { kind: 'itemNotExists' });
}

/**
 * The op that goes with every key created for an existing user: the user must still be there (a
 * removed member gets no key), and its `key_serial` changes, so a removal that counted the user's
 * keys before fails its condition (lib/auth/team/team-remove.ts).
 */
export function keyOwnerOp(tenantId: string, userId: string): WriteOp {
  return user.update(
    { tenant_id: tenantId, id: userId },
    { add: { key_serial: 1 }, condition: { kind: 'itemExists' } },
  );
}

/** The write of a user's report preference (lib/reports), while the user is there. */
export function userReportOp(
  tenantId: string,
  userId: string,
  preference: {
    report: 'off' | 'weekly' | 'monthly';
    report_time_zone: string;
    report_since: string;
    updated_at: string;
  },
): WriteOp {
  return user.update(
    { tenant_id: tenantId, id: userId },
    { set: preference, condition: { kind: 'itemExists' } },
  );
}

/**
 * The deletes of a member's user item and e-mail item: the user item only while it is there with
 * the `key_serial` it had when its keys were counted.
 */
export function userRemovedOps(record: User): WriteOp[] {
  const serial: Condition =
    record.key_serial === undefined
      ? { kind: 'attrNotExists', attr: 'key_serial' }
      : { kind: 'compare', attr: 'key_serial', op: '=', value: record.key_serial };
  return [
    user.delete(record, { kind: 'and', conditions: [{ kind: 'itemExists' }, serial] }),
    userEmail.delete({ tenant_id: record.tenant_id, email: record.email }),
  ];
}
