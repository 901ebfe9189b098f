import type { MemberHooks } from '../auth/services.ts';
import type { Clock } from '../platform/clock.ts';
import { credentialDeletedOps, credentialPutOps } from './credential-items.ts';
import { policyRefusal, withPassword } from './sign-in/password-change.ts';
import type { SessionService } from './sign-in/session-service.ts';

/**
 * A team member's sign-in credential through their membership (lib/auth/team/member-hooks.ts): a
 * password given when accepting the invitation is written in the accept's transaction, and the
 * credential, its sign-in lookup and every session go with the member.
 */
export function memberCredentialHooks(deps: {
  clock: Clock;
  sessions: Pick<SessionService, 'revokeAll'>;
}): MemberHooks {
  return {
    async passwordOps(user, password) {
      const refusal = policyRefusal(password, user.email);
      if (refusal) throw refusal;
      const who = { tenant_id: user.tenant_id, user_id: user.id, email: user.email };
      const { record, condition } = await withPassword(undefined, who, password, deps.clock.now());
      return credentialPutOps(record, condition);
    },
    removedOps: (user) => credentialDeletedOps(user.tenant_id, user.id, user.email),
    async removed(tenantId, userId) {
      await deps.sessions.revokeAll(tenantId, userId);
    },
  };
}
