import type { Principal } from '../../domain/principal.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ConflictError, ForbiddenError, ValidationError } from '../../platform/errors.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { type Credential, credentialPutOps, getCredential } from '../credential-items.ts';
import { credentialChangeOps } from '../credential-write.ts';
import type { UserEmailOf } from '../ports.ts';
import { newRecoveryCodes } from './recovery-codes.ts';
import { codeSpent, hasSecondFactor } from './second-factor.ts';
import { newTotpSecret, otpauthUrl, totpStep } from './totp.ts';

export interface TotpServiceDeps {
  table: Table;
  clock: Clock;
  /** A first credential takes the user's e-mail. */
  userEmail: UserEmailOf;
}

const WRONG_CODE = 'the code is wrong, expired or already used';
const wrongCode = () => ValidationError.field('code', WRONG_CODE);

/** Whether a TOTP route failed on its code: counted as a failed authentication of the caller. */
export const isWrongCode = (error: unknown): boolean =>
  error instanceof ValidationError && error.details?.some((d) => d.message === WRONG_CODE) === true;

const changedMeanwhile = () => new ConflictError('your sign-in settings changed meanwhile; try again');

/**
 * The caller's own TOTP (docs/auth.md "Two-factor authentication (TOTP)"): enrol (a new secret,
 * unconfirmed), confirm with a first code (then recovery codes, shown once), turn off and renew
 * recovery codes with a code. The secret is in the enrolment's answer only.
 */
export function createTotpService(deps: TotpServiceDeps) {
  const { table, clock } = deps;

  const write = async (ops: WriteOp[]) => {
    try {
      await table.transact(ops);
    } catch (err) {
      if (err instanceof ConditionFailedError) throw changedMeanwhile();
      throw err;
    }
  };

  const confirmed = async (principal: Principal): Promise<Credential & { totp_secret: string }> => {
    const credential = await getCredential(table, principal.tenantId, principal.userId);
    if (!credential || !hasSecondFactor(credential) || credential.totp_secret === undefined)
      throw new ConflictError('two-factor authentication is not on');
    return { ...credential, totp_secret: credential.totp_secret };
  };

  /** Checks `code` (TOTP or recovery) of a confirmed credential: what spending it changes. */
  const spend = (credential: Credential & { totp_secret: string }, code: string, now: number) => {
    const change = codeSpent(credential, credential.totp_secret, code.trim(), now);
    if (!change) throw wrongCode();
    return change;
  };

  return {
    /** Starts enrolment: a new secret replaces an unconfirmed one; 409 while one is confirmed. */
    async enrol(principal: Principal): Promise<{ secret: string; otpauth_url: string }> {
      const now = clock.now();
      const credential = await getCredential(table, principal.tenantId, principal.userId);
      if (hasSecondFactor(credential))
        throw new ConflictError('two-factor authentication is already on; turn it off first');
      const secret = newTotpSecret();
      let ops: WriteOp[];
      let email: string;
      if (credential) {
        email = credential.email;
        ops = credentialChangeOps(
          credential,
          { totp_secret: secret, totp_confirmed_at: undefined, totp_last_step: undefined },
          now,
        );
      } else {
        const userEmail = await deps.userEmail(principal.tenantId, principal.userId);
        if (userEmail === undefined) throw new ForbiddenError('this credential belongs to no user');
        email = userEmail.toLowerCase();
        const record: Credential = {
          tenant_id: principal.tenantId,
          user_id: principal.userId,
          email,
          totp_secret: secret,
          version: 1,
          updated_at: isoTime(now),
        };
        ops = credentialPutOps(record, { kind: 'itemNotExists' });
      }
      await write(ops);
      return { secret, otpauth_url: otpauthUrl(secret, email) };
    },

    /** Confirms enrolment with a code of the new secret: TOTP is on; ten recovery codes, shown once. */
    async confirm(principal: Principal, code: string): Promise<{ recovery_codes: string[] }> {
      const now = clock.now();
      const credential = await getCredential(table, principal.tenantId, principal.userId);
      if (hasSecondFactor(credential)) throw new ConflictError('two-factor authentication is already on');
      if (!credential?.totp_secret)
        throw new ConflictError('no two-factor enrolment is pending: start one with POST /v1/me/totp');
      const step = totpStep(credential.totp_secret, code.trim(), now);
      if (step === undefined) throw wrongCode();
      const recovery = newRecoveryCodes();
      await write(
        credentialChangeOps(
          credential,
          { totp_confirmed_at: isoTime(now), totp_last_step: step, recovery_code_hashes: recovery.hashes },
          now,
        ),
      );
      return { recovery_codes: recovery.codes };
    },

    /** Turns TOTP off, given a current code or a recovery code. */
    async disable(principal: Principal, code: string): Promise<void> {
      const now = clock.now();
      const credential = await confirmed(principal);
      spend(credential, code, now);
      await write(
        credentialChangeOps(
          credential,
          {
            totp_secret: undefined,
            totp_confirmed_at: undefined,
            totp_last_step: undefined,
            recovery_code_hashes: undefined,
          },
          now,
        ),
      );
    },

    /** Replaces every recovery code with ten new ones (shown once), given a current code. */
    async renewRecoveryCodes(principal: Principal, code: string): Promise<{ recovery_codes: string[] }> {
      const now = clock.now();
      const credential = await confirmed(principal);
      const change = spend(credential, code, now);
      const recovery = newRecoveryCodes();
      await write(credentialChangeOps(credential, { ...change, recovery_code_hashes: recovery.hashes }, now));
      return { recovery_codes: recovery.codes };
    },
  };
}

export type TotpService = ReturnType<typeof createTotpService>;
