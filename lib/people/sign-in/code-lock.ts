import { createHash, randomBytes } from 'node:crypto';
import type { EmailSender } from '../../domain/formats.ts';
import { type Clock, isoTime } from '../../platform/clock.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import type { RateLimiter } from '../../platform/rate-limiter.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import { type Credential, getCredential } from '../credential-items.ts';
import { credentialChangeOps } from '../credential-write.ts';
import type { MailTransport } from '../ports.ts';
import { checkSecondFactor, hasSecondFactor, type SecondFactorResult } from '../totp/second-factor.ts';
import { signInLinkMail } from './sign-in-link-email.ts';

/** Wrong second-factor codes (with the right password) after which a code needs a known browser or the e-mailed link. */
export const WRONG_CODES_BEFORE_LOCK = 5;
/** How long an e-mailed sign-in link works. */
const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
const LINK_PREFIX = 'vsl_';
const LINK_PATTERN = /^vsl_[A-Za-z0-9_-]{43}$/;
/** At most one new link a minute per account: a script with the password cannot flood the inbox. */
const LINK_PACE = { burst: 1, perSecond: 1 / 60 };

export interface CodeLockDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  /** The password-reset e-mail's transport, sender and the console's URL; any missing: no link can be sent. */
  mail?: {
    transport: MailTransport | undefined;
    from: EmailSender | undefined;
    publicUrl: string | undefined;
  };
}

/** How a sign-in's browser may send a code: one that signed in before (`known`), or with an e-mailed link. */
export interface CodeAccess {
  known: boolean;
  link: string | undefined;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The refusal of a code from an unknown browser of a locked account (400 on `totp`, not a guess). */
function lockedRefusal(mailOn: boolean, badLink: boolean): ValidationError {
  const link = badLink ? 'That sign-in link is wrong, used or expired. ' : '';
  const how = mailOn
    ? 'enter the code in a browser you signed in with before, or open the sign-in link we e-mailed you (it works once, for 15 minutes)'
    : 'enter the code in a browser you signed in with before (e-mail is not configured, so no sign-in link can be sent)';
  return ValidationError.field('totp', `${link}Too many wrong codes for this account: ${how}.`);
}

/**
 * The second factor of a sign-in whose password was right, with the lock on repeated wrong codes
 * (docs/auth.md "Two-factor authentication"): each wrong code adds to the credential's
 * `wrong_codes`, a code that passes clears it. From WRONG_CODES_BEFORE_LOCK on, a code is looked at
 * only from a browser that signed in to the account before (its device cookie) or with the
 * one-time link e-mailed to the person: any other sign-in gets a clear 400 and, at most once a
 * minute, a new link (its SHA-256 kept on the credential, 15 minutes, one attempt: the link is spent
 * by the code it came with, right or wrong). Per-address guessing is bounded by the failure limits.
 */
export function createCodeLock(deps: CodeLockDeps) {
  const mailOn = () =>
    deps.mail?.transport !== undefined && deps.mail.from !== undefined && deps.mail.publicUrl !== undefined;

  /** Writes `change` on the credential, re-read after a concurrent change; false when it never held. */
  const change = async (credential: Credential, next: (c: Credential) => Partial<Credential>) => {
    let current: Credential | undefined = credential;
    for (let attempt = 0; attempt < 3 && current; attempt += 1) {
      try {
        await deps.table.transact(credentialChangeOps(current, next(current), deps.clock.now()));
        return true;
      } catch (err) {
        if (!(err instanceof ConditionFailedError)) throw err;
        current = await getCredential(deps.table, credential.tenant_id, credential.user_id);
      }
    }
    return false;
  };

  const linkIsGood = (credential: Credential, link: string | undefined) =>
    link !== undefined &&
    LINK_PATTERN.test(link) &&
    credential.sign_in_link_hash === sha256(link) &&
    (credential.sign_in_link_expires_at ?? '') > isoTime(deps.clock.now());

  /** A new link to the person (replacing an older one), unless one went less than a minute ago. */
  const sendLink = async (credential: Credential) => {
    const { transport, from, publicUrl } = deps.mail ?? {};
    if (!transport || !from || !publicUrl) return;
    const bucket = `SIGNINLINK#${credential.tenant_id}#${credential.user_id}`;
    const turn = await deps.limiter.take(bucket, LINK_PACE).catch(() => undefined);
    if (turn && !turn.allowed) return;
    const token = `${LINK_PREFIX}${randomBytes(32).toString('base64url')}`;
    const expires = isoTime(deps.clock.now() + SIGN_IN_LINK_TTL_MS);
    if (
      !(await change(credential, () => ({
        sign_in_link_hash: sha256(token),
        sign_in_link_expires_at: expires,
      })))
    )
      return deps.logger.warn('sign-in link not stored', { userId: credential.user_id });
    const deliveryId = `signinlink-${sha256(token).slice(0, 16)}`;
    const outcome = await transport.send(
      signInLinkMail({
        from,
        to: credential.email,
        url: `${publicUrl}/sign-in?link=${encodeURIComponent(token)}`,
        wrongCodes: credential.wrong_codes ?? WRONG_CODES_BEFORE_LOCK,
        minutes: SIGN_IN_LINK_TTL_MS / 60_000,
        deliveryId,
      }),
    );
    if (!outcome.ok) deps.logger.warn('sign-in link e-mail not sent', { deliveryId, error: outcome.error });
  };

  return {
    /** The code's verdict for a sign-in whose password was right; throws the locked refusal. */
    async check(
      credential: Credential,
      code: string | undefined,
      access: CodeAccess,
    ): Promise<SecondFactorResult> {
      if (!hasSecondFactor(credential)) return 'ok';
      const locked = (credential.wrong_codes ?? 0) >= WRONG_CODES_BEFORE_LOCK && !access.known;
      const viaLink = locked && linkIsGood(credential, access.link);
      if (locked && !viaLink) {
        await sendLink(credential);
        throw lockedRefusal(mailOn(), access.link !== undefined);
      }
      // The link's one attempt: spent with the code's verdict, right or wrong.
      const spent = viaLink ? { sign_in_link_hash: undefined, sign_in_link_expires_at: undefined } : {};
      const verdict = await checkSecondFactor(deps, credential, code, { ...spent, wrong_codes: undefined });
      if (verdict === 'invalid') {
        const counted = await change(credential, (c) => ({
          ...spent,
          wrong_codes: (c.wrong_codes ?? 0) + 1,
        }));
        if (!counted)
          deps.logger.warn('wrong second-factor code not counted', { userId: credential.user_id });
      }
      return verdict;
    },
  };
}
