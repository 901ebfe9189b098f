/**
 * lib/auth's services for the compositions (lib/people/compose.ts, the operator CLI): API keys and
 * their store, the operator's first key, the team and its store, and the hooks lib/people fills in
 * so a member's credential comes and goes with the membership.
 */
export { createKeyService } from './keys/key-service.ts';
export { createKeyStore } from './keys/key-store.ts';
export { createOperatorKey, OperatorKeyError } from './keys/operator-key.ts';
export type { MemberHooks } from './team/member-hooks.ts';
export { createTeamService } from './team/team-service.ts';
export { createTeamStore } from './team/team-store.ts';
