import type { RateLimitGuard } from '../auth/rate-limit.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Table } from '../store/table.ts';
import { totpRoutes } from './totp-routes.ts';
import { createTotpService } from './totp-service.ts';

export interface FactorDeps {
  table: Table;
  clock: Clock;
  limits: Pick<RateLimitGuard, 'attempt'>;
}

/** Two-factor authentication (TOTP, recovery codes) and password reset by e-mail (docs/auth.md). */
export function composeFactor(deps: FactorDeps): { routes: Route[] } {
  const totp = createTotpService({ table: deps.table, clock: deps.clock });
  return { routes: [...totpRoutes({ totp, limits: deps.limits })] };
}
