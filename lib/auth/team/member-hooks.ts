import type { WriteOp } from '../../store/table.ts';
import type { User } from '../tenants/user-items.ts';

/**
 * What the sign-in feature (lib/people, composed in lib/people/compose.ts) keeps of a team member,
 * given to the team routes so lib/auth need not import it: a password set on accepting an
 * invitation (written in the accept's transaction), and the credential and sessions deleted with
 * the member.
 */
export interface MemberHooks {
  /** The ops that give a new member `password`; throws ValidationError on `password` when the policy refuses it. */
  passwordOps(user: User, password: string): Promise<WriteOp[]>;
  /** The ops that delete the member's credential (in the removal's first transaction). */
  removedOps(user: User): WriteOp[];
  /** After the removal: ends the member's sessions (they are refused already: the user is gone). */
  removed(tenantId: string, userId: string): Promise<void>;
}
