import type { EmailSender } from '../domain/formats.ts';
import type { AuditEvent } from '../domain/principal.ts';

/**
 * What lib/people needs of the rest of the code base, as ports the composition (lib/people/compose.ts)
 * fills from lib/auth and lib/notify: lib/auth deletes a removed member's credential (an import of
 * lib/people), so lib/people imports neither lib/auth nor what imports it (no folder cycle).
 */

/** The failed-authentication limit of lib/auth/limits/rate-limit.ts (`RateLimitGuard.attempt`). */
export interface FailureLimit {
  attempt<T>(
    caller: { sourceIp?: string | undefined },
    credentialId: string,
    verify: () => Promise<T>,
    isWrong: (error: unknown) => boolean,
  ): Promise<T>;
}

/** A user of a tenant as lib/auth stores it: the e-mail they are known by (undefined: no such user). */
export type UserEmailOf = (tenantId: string, userId: string) => Promise<string | undefined>;

/** A tenant's name, and whether it is disabled (undefined: no such tenant). */
export type TenantOf = (
  tenantId: string,
) => Promise<{ name: string; disabled?: boolean | undefined } | undefined>;

/** One e-mail to send: lib/notify's EmailTransport (SMTP locally, SES in the cloud) takes it. */
export interface OutgoingMail {
  subject: string;
  text: string;
  html: string;
  from: EmailSender;
  to: string[];
  deliveryId: string;
}

/** Where e-mail leaves the process (lib/notify/email-transport.ts). */
export interface MailTransport {
  send(email: OutgoingMail): Promise<{ ok: boolean; error: string | null }>;
}

/**
 * Passwords as the sign-in sets them (lib/people/password.ts `hashPassword`, lib/people/password-policy.ts
 * `checkPasswordPolicy`): a reset sets a new one under the same policy.
 */
export interface PasswordPort {
  hash(password: string): Promise<string>;
  /** Why the password is refused, or undefined when it is good. */
  policy(password: string, context: { email: string }): string | undefined;
}

/** Ends every session of the user (the session service's `revokeAll`): a reset signs them out everywhere. */
export type RevokeSessions = (tenantId: string, userId: string) => Promise<number>;

/** Whether the tenant lets its people sign in with a password (false when it requires SSO). */
export type PasswordAllowed = (tenantId: string) => Promise<boolean>;

/**
 * Records an event in a tenant's audit log (lib/audit/event-audit.ts `createEventAudit`); it never
 * throws. Failed sign-ins past an account's limit are recorded through it.
 */
export type RecordAudit = (event: AuditEvent) => Promise<void>;
