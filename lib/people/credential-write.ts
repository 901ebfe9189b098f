import { isoTime } from '../platform/clock.ts';
import type { WriteOp } from '../store/table.ts';
import { type Credential, credentialPutOps, credentialSchema } from './credential-items.ts';

/**
 * The writes of a change to a credential read at `credential.version`: the whole credential with
 * `change` applied, its version added to, and the condition that nobody changed it meanwhile (a
 * recovery code or a TOTP step is thus used once, even by two sign-ins at the same moment).
 */
export function credentialChangeOps(
  credential: Credential,
  change: Partial<Credential>,
  nowMs: number,
): WriteOp[] {
  const merged = { ...credential, ...change, version: credential.version + 1, updated_at: isoTime(nowMs) };
  // Attributes the change clears (set to undefined) leave the stored record.
  const next = credentialSchema.parse(
    Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)),
  );
  return credentialPutOps(next, { kind: 'compare', attr: 'version', op: '=', value: credential.version });
}
