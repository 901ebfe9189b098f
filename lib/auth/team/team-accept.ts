import { type Clock, isoTime } from '../../platform/clock.ts';
import { AccountDisabledError, ConflictError, ValidationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { ConditionFailedError, type Table, type WriteOp } from '../../store/table.ts';
import { hashApiKey } from '../api-key.ts';
import { ensureKeyCount, isAdminKey, keyLimitError } from '../keys/key-count.ts';
import { countKeyOp } from '../keys/key-count-items.ts';
import { type KeyStore, newKeyOps } from '../keys/key-store.ts';
import { memberJoinedOp } from '../tenants/tenant-items.ts';
import type { TenantStore } from '../tenants/tenant-store.ts';
import { type User, userCreatedOps } from '../tenants/user-items.ts';
import { invitationAcceptedOps } from './invitation-items.ts';
import type { MemberHooks } from './member-hooks.ts';
import type { TeamStore } from './team-store.ts';
import { activeMember } from './team-views.ts';

export interface AcceptDeps {
  table: Table;
  team: TeamStore;
  tenants: TenantStore;
  keys: Pick<KeyStore, 'list'>;
  clock: Clock;
  hooks?: MemberHooks;
}

/** The label of the API key a new member gets on accepting. */
const FIRST_KEY_LABEL = 'default';
const TOKEN_PATTERN = /^vgi_[0-9A-Za-z]{40}$/;

const INVALID_TOKEN = 'the invitation token is invalid, expired or already used';

// Unknown, expired and used tokens get the same answer, so the endpoint reveals nothing about a token.
const invalidToken = () => ValidationError.field('token', INVALID_TOKEN);

/** Whether an accept failed on its token: a wrong guess, counted as a failed authentication of the address. */
export const isInvalidInvitationToken = (error: unknown): boolean =>
  error instanceof ValidationError &&
  error.details?.some((d) => d.path === 'token' && d.message === INVALID_TOKEN) === true;

// Op order matters: failed condition indexes are mapped back to answers below.
const INVITATION_OPS = [0, 1, 2];
const TENANT_OP = 3;
const EMAIL_OP = 5;

/**
 * Accepts an invitation by its token: one transaction creates the member, their e-mail uniqueness
 * item and first API key (counted against the tenant's key limit), and consumes the invitation
 * (so a token works exactly once).
 */
export async function acceptInvitation(
  input: { token: string; name?: string | undefined; password?: string | undefined },
  deps: AcceptDeps,
) {
  const now = deps.clock.now();
  const at = isoTime(now);
  if (!TOKEN_PATTERN.test(input.token)) throw invalidToken();
  const hash = hashApiKey(input.token);
  const lookup = await deps.team.findToken(hash);
  // TTL deletion is lazy, so expiry is always checked here as well.
  if (!lookup || lookup.expires_at <= at) throw invalidToken();
  const tenantId = lookup.tenant_id;
  const [invitation, tenant] = await Promise.all([
    deps.team.getInvitation(tenantId, lookup.invitation_id),
    deps.tenants.getTenant(tenantId),
  ]);
  if (!invitation || invitation.token_hash !== hash || invitation.expires_at <= at || !tenant)
    throw invalidToken();
  if (tenant.disabled) throw new AccountDisabledError();

  const user: User = {
    id: newId('usr', now),
    tenant_id: tenantId,
    email: invitation.email,
    // Without a name, the e-mail's local part (the member renames themselves later).
    name: input.name ?? invitation.email.split('@')[0] ?? invitation.email,
    role: invitation.role,
    created_at: at,
    updated_at: at,
  };
  const key = newKeyOps({ tenantId, userId: user.id, label: FIRST_KEY_LABEL, readOnly: false }, now);
  const ops: WriteOp[] = [
    ...invitationAcceptedOps(invitation, at),
    memberJoinedOp(tenantId, user.role),
    ...userCreatedOps(user, { kind: 'itemNotExists' }),
    ...key.ops,
    countKeyOp(tenantId, isAdminKey(key.record, user.role)),
  ];
  const keyCountOp = ops.length - 1;
  if (input.password !== undefined) {
    if (!deps.hooks) throw ValidationError.field('password', 'passwords are not enabled here');
    ops.push(...(await deps.hooks.passwordOps(user, input.password)));
  }
  await ensureKeyCount(deps, tenantId);

  try {
    await deps.table.transact(ops);
  } catch (err) {
    if (err instanceof ConditionFailedError) {
      if (err.failed.some((i) => INVITATION_OPS.includes(i))) throw invalidToken();
      if (err.failed.includes(TENANT_OP)) throw new AccountDisabledError();
      if (err.failed.includes(EMAIL_OP))
        throw new ConflictError('a team member with this e-mail already exists');
    }
    const limit = keyLimitError(err, keyCountOp);
    if (limit) throw limit;
    throw err;
  }
  return {
    user: activeMember(user),
    key: key.raw,
    key_id: key.record.id,
    tenant_id: tenantId,
    password: input.password !== undefined,
  };
}
