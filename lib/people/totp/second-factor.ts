import type { Clock } from '../../platform/clock.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import type { Credential } from '../credential-items.ts';
import { credentialChangeOps } from '../credential-write.ts';
import { hashRecoveryCode, looksLikeRecoveryCode } from './recovery-codes.ts';
import { isTotpCode, totpStep } from './totp.ts';

export interface SecondFactorDeps {
  table: Table;
  clock: Clock;
}

/** What a sign-in's second factor came to: passed (or none needed), missing, or wrong. */
export type SecondFactorResult = 'ok' | 'required' | 'invalid';

/** Whether the credential asks for a second factor at sign-in: a confirmed TOTP. */
export const hasSecondFactor = (credential: Credential | undefined): boolean =>
  credential?.totp_confirmed_at !== undefined && credential.totp_secret !== undefined;

/**
 * The second factor of a sign-in (docs/auth.md "Two-factor authentication"): 'ok' when the
 * credential has no confirmed TOTP, or `code` is a TOTP code of a step later than the last one
 * accepted, or an unused recovery code; 'required' when a code is needed and none came; else
 * 'invalid'. An accepted step or recovery code is spent in a write conditioned on the
 * credential's version (with `alsoOnPass` changed too), so a replayed code, or the same code in
 * two sign-ins at once, passes once.
 */
export async function checkSecondFactor(
  deps: SecondFactorDeps,
  credential: Credential | undefined,
  code: string | undefined,
  alsoOnPass: Partial<Credential> = {},
): Promise<SecondFactorResult> {
  if (!credential || !hasSecondFactor(credential) || credential.totp_secret === undefined) return 'ok';
  const given = code?.trim() ?? '';
  if (given === '') return 'required';
  const now = deps.clock.now();
  const change = codeSpent(credential, credential.totp_secret, given, now);
  if (!change) return 'invalid';
  try {
    await deps.table.transact(credentialChangeOps(credential, { ...change, ...alsoOnPass }, now));
    return 'ok';
  } catch (err) {
    // Changed meanwhile (the same code spent by another sign-in): this one does not pass.
    if (err instanceof ConditionFailedError) return 'invalid';
    throw err;
  }
}

/**
 * What accepting `code` (a TOTP code or a recovery code) of a confirmed credential changes in it
 * (the step accepted, the recovery code gone), or undefined when the code is not good. The TOTP
 * routes that turn TOTP off or renew recovery codes check the code with it too.
 */
export function codeSpent(
  credential: Credential,
  secret: string,
  code: string,
  now: number,
): Partial<Credential> | undefined {
  if (isTotpCode(code)) {
    const step = totpStep(secret, code, now);
    if (step === undefined || step <= (credential.totp_last_step ?? -1)) return undefined;
    return { totp_last_step: step };
  }
  if (!looksLikeRecoveryCode(code)) return undefined;
  const hash = hashRecoveryCode(code);
  const left = credential.recovery_code_hashes ?? [];
  if (!left.includes(hash)) return undefined;
  return { recovery_code_hashes: left.filter((h) => h !== hash) };
}
