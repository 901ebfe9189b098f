import { listUsers, type User } from '../auth/records.ts';
import { getTenantChannels, listRoutes } from '../notify/records.ts';
import { getSchedule } from '../oncall/schedule-items.ts';
import { userNamer } from '../oncall/schedule-responses.ts';
import { type Clock, isoTime } from '../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../platform/errors.ts';
import { newId } from '../platform/ids.ts';
import { deleteHeld, replaceHeld } from '../store/held-writes.ts';
import type { Table } from '../store/table.ts';
import { getTeam, listTeams } from '../teams/team-items.ts';
import {
  getPolicy,
  listPolicies,
  POLICY_LIMITS,
  type PolicyRecord,
  policyCreatedOp,
  policyDeletedOp,
  policyReplacedOp,
} from './policy-items.ts';
import { type PolicyBody, type PublicPolicy, publicPolicy } from './policy-schemas.ts';

/**
 * Escalation policies of a tenant (issue 55 item 3): admins write them (the router's `role`),
 * everyone reads them. Every target names something of the account (a schedule, a member, a
 * tenant channel, a team); a policy a route or a team uses cannot be deleted (409 naming them).
 */
export function createPolicyService(deps: { table: Table; clock: Clock }) {
  const { table, clock } = deps;

  const require = async (tenantId: string, id: string) => {
    const found = await getPolicy(table, tenantId, id);
    if (!found) throw new NotFoundError('escalation policy');
    return found;
  };

  /** The address of each member by user id, as schedules name them (a removed member's: null). */
  const emailsOf = (users: User[]) => {
    const name = userNamer(users);
    return (userId: string) => name(userId).email;
  };
  const emails = async (tenantId: string) => emailsOf(await listUsers(table, tenantId));

  /** 400 naming the first target that names something this account does not have. */
  const validate = async (tenantId: string, body: PolicyBody) => {
    const targets = body.steps.flatMap((step, i) =>
      step.targets.map((target, j) => ({ target, path: `steps.${i}.targets.${j}.id` })),
    );
    const users = await listUsers(table, tenantId);
    const members = new Set(users.map((u) => u.id));
    const channelIds = targets.filter((t) => t.target.type === 'channel').map((t) => t.target.id);
    const channels = new Set(
      (await getTenantChannels(table, tenantId, [...new Set(channelIds)])).map((c) => c.id),
    );
    const issues: { path: string; message: string }[] = [];
    for (const { target, path } of targets) {
      const found =
        target.type === 'user'
          ? members.has(target.id)
          : target.type === 'channel'
            ? channels.has(target.id)
            : target.type === 'schedule'
              ? (await getSchedule(table, tenantId, target.id)) !== undefined
              : (await getTeam(table, tenantId, target.id)) !== undefined;
      if (!found) issues.push({ path, message: `No ${NAMES[target.type]} of this account has this id.` });
    }
    if (issues.length > 0) throw new ValidationError(`${issues[0]?.path}: ${issues[0]?.message}`, issues);
    // The members read once serve the answer too.
    return emailsOf(users);
  };

  return {
    async list(tenantId: string): Promise<PublicPolicy[]> {
      const [policies, emailOf] = await Promise.all([listPolicies(table, tenantId), emails(tenantId)]);
      return policies.map((policy) => publicPolicy(policy, emailOf));
    },

    async get(tenantId: string, id: string): Promise<PublicPolicy> {
      return publicPolicy(await require(tenantId, id), await emails(tenantId));
    },

    async create(tenantId: string, body: PolicyBody): Promise<PublicPolicy> {
      const emailOf = await validate(tenantId, body);
      if ((await listPolicies(table, tenantId)).length >= POLICY_LIMITS.perTenant)
        throw new LimitExceededError(`a tenant keeps at most ${POLICY_LIMITS.perTenant} escalation policies`);
      const now = clock.now();
      const record: PolicyRecord = {
        id: newId('esp', now),
        tenant_id: tenantId,
        ...body,
        created_at: isoTime(now),
        updated_at: isoTime(now),
        version: 1,
      };
      await table.transact([policyCreatedOp(record)]);
      return publicPolicy(record, emailOf);
    },

    async replace(tenantId: string, id: string, body: PolicyBody): Promise<PublicPolicy> {
      const current = await require(tenantId, id);
      const emailOf = await validate(tenantId, body);
      const next: PolicyRecord = {
        ...current,
        ...body,
        updated_at: isoTime(clock.now()),
        version: current.version + 1,
      };
      await replaceHeld(table, [policyReplacedOp(next, current.version)], {
        name: 'escalation policy',
        exists: async () => (await getPolicy(table, tenantId, id)) !== undefined,
      });
      return publicPolicy(next, emailOf);
    },

    /** Deletes the policy; 409 naming the routes and teams that still use it. */
    async remove(tenantId: string, id: string): Promise<void> {
      await require(tenantId, id);
      const [routes, teams] = await Promise.all([listRoutes(table, tenantId), listTeams(table, tenantId)]);
      const users = [
        ...routes
          .filter((r) => r.escalation_policy_id === id)
          .map((r) => `route ${JSON.stringify(r.name ?? r.id)}`),
        ...teams.filter((t) => t.escalation_policy_id === id).map((t) => `team ${JSON.stringify(t.name)}`),
      ];
      if (users.length > 0)
        throw new ConflictError(`the escalation policy is in use by ${users.join(', ')}: change them first`);
      await deleteHeld(table, [policyDeletedOp(tenantId, id)], 'escalation policy');
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;

const NAMES = { schedule: 'schedule', user: 'member', channel: 'tenant channel', team: 'team' } as const;
