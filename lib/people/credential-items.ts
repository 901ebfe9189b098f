import * as z from 'zod';
import { defineItem } from '../store/item-definition.ts';
import { itemType } from '../store/item-type.ts';
import { tenantPk } from '../store/partitions.ts';
import type { Condition, Table, WriteOp } from '../store/table.ts';

/**
 * How a person proves who they are (`user_credential`, one per user, under the tenant): a password
 * hash, a TOTP secret and the hashes of unused recovery codes; and the sign-in lookup of an e-mail
 * address (`login_email`, one per tenant the address has a password in: `LOGIN#<email>`), the
 * only way from the e-mail typed at sign-in to the users it may be. Written and deleted with the
 * password, and with the user (docs/auth.md, docs/data-model.md "People").
 */

export const credentialSchema = z.object({
  tenant_id: z.string(),
  user_id: z.string(),
  /** Lower case. */
  email: z.string(),
  /** `scrypt$N$r$p$salt$hash` (lib/people/password.ts); absent: no password (SSO only, or not set yet). */
  password_hash: z.string().optional(),
  password_changed_at: z.string().optional(),
  /** Base32 TOTP secret (RFC 6238); enrolled but unconfirmed until `totp_confirmed_at`. */
  totp_secret: z.string().optional(),
  totp_confirmed_at: z.string().optional(),
  /** SHA-256 hashes of the recovery codes not used yet. */
  recovery_code_hashes: z.array(z.string()).optional(),
  /** The last TOTP time step accepted: a code is accepted once (RFC 6238 5.2). */
  totp_last_step: z.number().int().optional(),
  /**
   * SHA-256 hashes of the device cookies of browsers that signed in with this credential, the most
   * recent last (lib/people/sign-in/sign-in-device.ts): their sign-ins skip the account's failure limit.
   */
  device_hashes: z.array(z.string()).optional(),
  /**
   * Wrong second-factor codes sent with the right password since the last sign-in that passed the
   * second factor (lib/people/sign-in/code-lock.ts): from WRONG_CODES_BEFORE_LOCK on, a code is
   * looked at only from a browser of `device_hashes` or with the e-mailed sign-in link.
   */
  wrong_codes: z.number().int().min(0).optional(),
  /** SHA-256 of the one sign-in link e-mailed to a locked account (never the token), until it expires. */
  sign_in_link_hash: z.string().optional(),
  sign_in_link_expires_at: z.string().optional(),
  /** Added to on each change: writes conditioned on it fail when another changed the credential meanwhile. */
  version: z.number().int(),
  updated_at: z.string(),
});
export type Credential = z.infer<typeof credentialSchema>;

const credential = defineItem({
  type: itemType('user_credential'),
  schema: credentialSchema,
  key: (k: { tenant_id: string; user_id: string }) => ({
    pk: tenantPk(k.tenant_id),
    sk: `CRED#${k.user_id}`,
  }),
  docKey: { tenant_id: '<tnt>', user_id: '<usr>' },
});

const loginEmailSchema = z.object({ email: z.string(), tenant_id: z.string(), user_id: z.string() });
export type LoginEmail = z.infer<typeof loginEmailSchema>;

const LOGIN_TENANT = 'TNT#';

const loginEmail = defineItem({
  type: itemType('login_email'),
  schema: loginEmailSchema,
  key: (k: { email: string; tenant_id: string }) => ({
    pk: `LOGIN#${k.email.toLowerCase()}`,
    sk: `${LOGIN_TENANT}${k.tenant_id}`,
  }),
  docKey: { email: '<email>', tenant_id: '<tnt>' },
});

/** The user's credential, or undefined (consistent). */
export function getCredential(
  table: Table,
  tenantId: string,
  userId: string,
): Promise<Credential | undefined> {
  return credential.get(table, { tenant_id: tenantId, user_id: userId }, { consistent: true });
}

/** Every tenant the e-mail address signs in to with a password (bounded: a person is in few teams). */
export async function findLogins(table: Table, email: string): Promise<LoginEmail[]> {
  const page = await table.query({
    pk: `LOGIN#${email.toLowerCase()}`,
    sk: { op: 'beginsWith', prefix: LOGIN_TENANT },
    limit: 20,
    consistent: true,
  });
  return page.items.map((item) => loginEmail.parse(item));
}

/**
 * The puts of a credential (whole) and its e-mail's sign-in lookup; `condition` guards the
 * credential (itemNotExists for the first, a version match for a change).
 */
export function credentialPutOps(record: Credential, condition?: Condition): WriteOp[] {
  const ops: WriteOp[] = [credential.put(record, condition)];
  if (record.password_hash !== undefined)
    ops.push(
      loginEmail.put({
        email: record.email.toLowerCase(),
        tenant_id: record.tenant_id,
        user_id: record.user_id,
      }),
    );
  else ops.push(loginEmail.delete({ email: record.email, tenant_id: record.tenant_id }));
  return ops;
}

/** The deletes of a user's credential and sign-in lookup (with the user, lib/auth/team/team-remove.ts). */
export function credentialDeletedOps(tenantId: string, userId: string, email: string): WriteOp[] {
  return [
    credential.delete({ tenant_id: tenantId, user_id: userId }),
    loginEmail.delete({ email, tenant_id: tenantId }),
  ];
}
