import type { EmailSender } from '../domain/formats.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter } from '../platform/rate-limiter.ts';
import type { Table } from '../store/table.ts';
import { createPasswordResetService } from './reset/password-reset.ts';
import { passwordResetRoutes } from './reset/password-reset-routes.ts';
import type {
  FailureLimit,
  MailTransport,
  PasswordAllowed,
  PasswordPort,
  RevokeSessions,
  TenantOf,
  UserEmailOf,
} from './reset/ports.ts';
import { totpRoutes } from './totp/totp-routes.ts';
import { createTotpService } from './totp/totp-service.ts';

export interface FactorDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  /** Failed authentications (wrong codes, wrong reset tokens) per caller address. */
  limits: FailureLimit;
  /** The buckets of the reset requests' own limits (per address, per e-mail address). */
  limiter: RateLimiter;
  tenant: TenantOf;
  userEmail: UserEmailOf;
  passwords: PasswordPort;
  revokeSessions?: RevokeSessions | undefined;
  passwordAllowed?: PasswordAllowed | undefined;
  mail: {
    transport: MailTransport | undefined;
    from: EmailSender | undefined;
    publicUrl: string | undefined;
  };
}

/** Two-factor authentication (TOTP, recovery codes) and password reset by e-mail (docs/auth.md). */
export function composeFactor(deps: FactorDeps): { routes: Route[] } {
  const totp = createTotpService(deps);
  const resets = createPasswordResetService(deps);
  return {
    routes: [
      ...totpRoutes({ totp, limits: deps.limits }),
      ...passwordResetRoutes({ resets, limits: deps.limits }),
    ],
  };
}
