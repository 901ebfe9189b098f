import * as z from 'zod';
import { defineItem } from '../../store/item-definition.ts';
import { itemType } from '../../store/item-type.ts';
import type { Table, WriteOp } from '../../store/table.ts';

/**
 * A pending password reset (`password_reset`): the SHA-256 hash of the token e-mailed (`vpr_…`,
 * never stored itself), whose credential it resets, and until when (30 minutes). It carries `ttl` =
 * `expires_at`; readers check `expires_at` too (TTL is lazy). Deleted on use, in a write
 * conditioned on its being there, so a token works once (docs/auth.md "Password reset").
 */

const passwordResetSchema = z.object({
  token_hash: z.string(),
  tenant_id: z.string(),
  user_id: z.string(),
  /** Lower case: the address the link was sent to; a user with another address since is no match. */
  email: z.string(),
  /**
   * The credential's `password_changed_at` when the link was sent ('' for none): a password set
   * since (another reset, a change) makes every older link useless.
   */
  password_changed_at: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PasswordReset = z.infer<typeof passwordResetSchema>;

const passwordReset = defineItem({
  type: itemType('password_reset'),
  schema: passwordResetSchema,
  key: (k: { token_hash: string }) => ({ pk: `PWRESET#${k.token_hash}`, sk: '#PWRESET' }),
  ttl: (r) => Math.ceil(Date.parse(r.expires_at) / 1000),
  docKey: { token_hash: '<sha256 of token>' },
});

/** The reset of a token's hash, or undefined (consistent; expired ones included). */
export function findPasswordReset(table: Table, tokenHash: string): Promise<PasswordReset | undefined> {
  return passwordReset.get(table, { token_hash: tokenHash }, { consistent: true });
}

/** The put of a new reset (fails if its token hash is already there). */
export function passwordResetCreatedOp(record: PasswordReset): WriteOp {
  return passwordReset.put(record, { kind: 'itemNotExists' });
}

/** The delete that uses a reset up: while it is there and unexpired at `at` (so it works once). */
export function passwordResetUsedOp(record: PasswordReset, at: string): WriteOp {
  return passwordReset.delete(record, {
    kind: 'and',
    conditions: [{ kind: 'itemExists' }, { kind: 'compare', attr: 'expires_at', op: '>', value: at }],
  });
}
