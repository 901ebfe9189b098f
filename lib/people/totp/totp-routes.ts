import * as z from 'zod';
import type { Principal } from '../../domain/principal.ts';
import { defineRoute } from '../../http/define-route.ts';
import { type AuthedContext, noContent, ok, type Route } from '../../http/types.ts';
import { ReadOnlyError } from '../../platform/errors.ts';
import type { FailureLimit } from '../ports.ts';
import { isWrongCode, type TotpService } from './totp-service.ts';

const codeBody = z.strictObject({
  code: z
    .string()
    .min(1)
    .max(40)
    .meta({ description: 'A current code of the authenticator app (6 digits), or an unused recovery code' }),
});

const enrolmentSchema = z.strictObject({
  secret: z.string().meta({ description: 'The TOTP secret (base32): shown in this response only' }),
  otpauth_url: z
    .string()
    .meta({ description: 'The otpauth:// URL an authenticator app reads (as a QR code)' }),
});

const recoveryCodesSchema = z.strictObject({
  recovery_codes: z
    .array(z.string())
    .meta({ description: 'Ten single-use recovery codes: shown in this response only' }),
});

const tag = 'Account';

/**
 * A viewer (read-only person) manages their own second factor too, signed in by session; a
 * read-only API key or OAuth token may not (403), as for the password (lib/people/sign-in/password-change.ts).
 */
function own(principal: Principal): Principal {
  if (principal.readOnly && principal.credential !== 'session') throw new ReadOnlyError();
  return principal;
}

/** Names the user, not the path, as what changed (the audit log). */
const onUser = (principal: Principal) => ({ target: { type: 'user', id: principal.userId } });

/** The caller's own TOTP routes (docs/auth.md "Two-factor authentication (TOTP)"). */
export function totpRoutes(deps: { totp: TotpService; limits: FailureLimit }): Route[] {
  // A wrong code counts as a failed authentication of the caller's address (no guessing of codes).
  const checked = <T>(ctx: AuthedContext, run: () => Promise<T>) =>
    deps.limits.attempt(ctx, `totp#${ctx.principal.userId}`, run, isWrongCode);
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/me/totp',
      auth: 'key',
      readsOnly: true,
      operationId: 'enrolTotp',
      tag,
      summary: 'Start two-factor enrolment: a new TOTP secret (shown once), unconfirmed until a first code',
      schemas: {
        body: z.strictObject({}).optional(),
        responses: { 200: enrolmentSchema },
        errors: ['CONFLICT', 'FORBIDDEN', 'READ_ONLY'],
      },
      handler: async ({ principal }) => ({
        ...ok(await deps.totp.enrol(own(principal))),
        audit: onUser(principal),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/me/totp/confirm',
      auth: 'key',
      readsOnly: true,
      operationId: 'confirmTotp',
      tag,
      summary: 'Confirm two-factor enrolment with a first code; returns ten recovery codes, once',
      schemas: { body: codeBody, responses: { 200: recoveryCodesSchema }, errors: ['CONFLICT', 'READ_ONLY'] },
      handler: async (ctx) => ({
        ...ok(await checked(ctx, () => deps.totp.confirm(own(ctx.principal), ctx.body.code))),
        audit: onUser(ctx.principal),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/me/totp/disable',
      auth: 'key',
      readsOnly: true,
      operationId: 'disableTotp',
      tag,
      summary: 'Turn two-factor authentication off, given a current code or a recovery code',
      schemas: { body: codeBody, responses: { 204: null }, errors: ['CONFLICT', 'READ_ONLY'] },
      handler: async (ctx) => {
        await checked(ctx, () => deps.totp.disable(own(ctx.principal), ctx.body.code));
        return { ...noContent(), audit: onUser(ctx.principal) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/me/recovery-codes',
      auth: 'key',
      readsOnly: true,
      operationId: 'renewRecoveryCodes',
      tag,
      summary: 'Replace the recovery codes with ten new ones (shown once), given a current code',
      schemas: { body: codeBody, responses: { 200: recoveryCodesSchema }, errors: ['CONFLICT', 'READ_ONLY'] },
      handler: async (ctx) => ({
        ...ok(await checked(ctx, () => deps.totp.renewRecoveryCodes(own(ctx.principal), ctx.body.code))),
        audit: onUser(ctx.principal),
      }),
    }),
  ];
}
