import * as z from 'zod';
import type { Actor } from '../../domain/principal.ts';
import { defineRoute } from '../../http/define-route.ts';
import { noContent, type Reply, type Route } from '../../http/types.ts';
import type { FailureLimit } from '../ports.ts';
import { isInvalidResetToken, type PasswordResetService } from './password-reset.ts';

const requestBody = z.strictObject({
  email: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.email().max(254),
  ),
});

const confirmBody = z.strictObject({
  token: z.string().min(1).max(200).meta({ description: 'The token of the e-mailed link (`vpr_…`)' }),
  password: z
    .string()
    .min(1)
    .max(1024)
    .meta({ description: 'The new password (the password policy applies)' }),
});

const tag = 'Account';

const userActor = (userId: string, email: string): Actor => ({ type: 'user', id: userId, label: email });

/** POST /v1/password-reset and /v1/password-reset/confirm (no key; docs/auth.md "Password reset"). */
export function passwordResetRoutes(deps: { resets: PasswordResetService; limits: FailureLimit }): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/password-reset',
      auth: 'none',
      operationId: 'requestPasswordReset',
      tag,
      summary:
        'E-mail a password reset link (valid 30 minutes) to the address, for each team it has a password in; 202 whether or not it has any',
      // 400 also when the operator has not configured e-mail (docs/auth.md "Password reset").
      schemas: { body: requestBody, responses: { 202: null }, errors: ['RATE_LIMITED'] },
      handler: async (ctx) => {
        const teams = await deps.resets.request(ctx.body, ctx);
        const reply: Reply = { status: 202 };
        const [first] = teams;
        // The audit log names the person in their team (one team's log per note).
        reply.audit = first
          ? {
              tenantId: first.tenantId,
              actor: userActor(first.userId, ctx.body.email),
              action: 'password_reset.request',
              target: { type: 'user', id: first.userId },
            }
          : { skip: true };
        return reply;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/password-reset/confirm',
      auth: 'none',
      operationId: 'confirmPasswordReset',
      tag,
      summary: 'Set a new password with the token of a reset link (once); ends every session of the user',
      // An unknown, used or expired token is a VALIDATION_ERROR on `token`.
      schemas: { body: confirmBody, responses: { 204: null }, errors: ['ACCOUNT_DISABLED'] },
      handler: async (ctx) => {
        const done = await deps.limits.attempt(
          ctx,
          ctx.body.token.slice(0, 12),
          () => deps.resets.confirm(ctx.body),
          isInvalidResetToken,
        );
        return {
          ...noContent(),
          audit: {
            tenantId: done.tenantId,
            actor: userActor(done.userId, done.email),
            action: 'password_reset.confirm',
            target: { type: 'user', id: done.userId },
          },
        };
      },
    }),
  ];
}
