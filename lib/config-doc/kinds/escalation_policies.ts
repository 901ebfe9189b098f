import * as z from 'zod';
import { POLICY_LIMITS } from '../../escalation/policy-items.ts';
import { type PublicPolicy, policyBody } from '../../escalation/policy-schemas.ts';
import { ConflictError, ForbiddenError } from '../../platform/errors.ts';
import { resolveId } from '../entity-refs.ts';
import {
  type Api,
  ConfigApplyError,
  defineKind,
  expectOk,
  type NameIndex,
  postNew,
  type Reference,
  seg,
} from '../kind.ts';
import { memberRefSchema, memberResolver } from './schedules.ts';

/**
 * Escalation policies in the document: the body of POST /v1/escalation-policies with each step's
 * targets named instead of given by id (`{schedule: <name>}`, `{user: <e-mail address>}`,
 * `{channel: <tenant channel name>}`, `{team: <name>}`); identity the policy's name. Policies come
 * after schedules, teams and channels (DOC_KEYS), so a policy may page objects the same apply
 * creates, and before routes, which name their policy.
 *
 * A team's own escalation policy stays outside the document (kinds/teams.ts): a policy may page a
 * team and a team may name a policy, a cycle between the two kinds the engine's order of kinds
 * cannot apply in one pass to a fresh tenant.
 */

const targetName = z.string().min(1).max(100);
const targetDoc = z.union([
  z.strictObject({ schedule: targetName.meta({ description: 'A schedule’s on-call person, by name' }) }),
  z.strictObject({ user: memberRefSchema }),
  z.strictObject({ channel: targetName.meta({ description: 'A tenant channel, by name' }) }),
  z.strictObject({ team: targetName.meta({ description: 'Every member of a team, by name' }) }),
]);
type TargetDoc = z.output<typeof targetDoc>;
type TargetType = 'schedule' | 'user' | 'channel' | 'team';

const { delay_seconds } = policyBody.shape.steps.element.shape;

const schema = z.strictObject({
  name: policyBody.shape.name,
  steps: z
    .array(
      z.strictObject({
        delay_seconds,
        targets: z.array(targetDoc).min(1).max(POLICY_LIMITS.targetsPerStep).meta({
          description:
            'Who this step pages: {schedule: name}, {user: e-mail address}, {channel: name} or {team: name}',
        }),
      }),
    )
    .min(1)
    .max(POLICY_LIMITS.steps),
  repeat: policyBody.shape.repeat,
});
type PolicyDoc = z.output<typeof schema>;

/** The kind of the objects each named target type is (users are people, no objects of the document). */
const KEYS = { schedule: 'schedules', channel: 'channels', team: 'teams' } as const;

/** A target's type and the name it gives. */
function typed(target: TargetDoc): { type: TargetType; ref: string } {
  if ('schedule' in target) return { type: 'schedule', ref: target.schedule };
  if ('user' in target) return { type: 'user', ref: target.user };
  if ('channel' in target) return { type: 'channel', ref: target.channel };
  return { type: 'team', ref: target.team };
}

function requireUniqueNames(policies: PublicPolicy[]): void {
  const byName = new Map<string, string[]>();
  for (const p of policies) byName.set(p.name, [...(byName.get(p.name) ?? []), p.id]);
  const shared = [...byName].filter(([, ids]) => ids.length > 1);
  if (shared.length > 0)
    throw new ConflictError(
      `escalation policies are named by their name in the document, and the tenant has several with one name: ${shared
        .map(([name, ids]) => `${JSON.stringify(name)} (${ids.join(', ')})`)
        .join('; ')}; rename all but one`,
    );
}

/**
 * A policy of the API as the document has it: people by address (from the account's members),
 * the rest by name; an id the index does not know stays an id (and fails a plan's reference check).
 */
function docOf(policy: PublicPolicy, emails: Map<string, string>, names: NameIndex): PolicyDoc {
  const target = ({ type, id }: { type: TargetType; id: string }): TargetDoc => {
    if (type === 'user') return { user: emails.get(id) ?? id };
    const name = names.identity(KEYS[type], id) ?? id;
    return type === 'schedule' ? { schedule: name } : type === 'channel' ? { channel: name } : { team: name };
  };
  return {
    name: policy.name,
    steps: policy.steps.map((step) => ({
      delay_seconds: step.delay_seconds,
      targets: step.targets.map(target),
    })),
    repeat: policy.repeat,
  };
}

/**
 * The addresses of the account's active members by user id, as memberResolver reads them back
 * (anyone else stays a user id). The policy API answers user ids only, and the member list is
 * closed to read-only keys (personal data), so a read-only key cannot plan or export policies that
 * page people: 403 saying so, rather than a plan that reads every address as changed.
 */
async function memberAddresses(api: Api): Promise<Map<string, string>> {
  const answer = await api({ method: 'GET', path: '/v1/settings/users' });
  if (answer.status === 403)
    throw new ForbiddenError(
      'escalation policies that page people name them by e-mail address, which this key may not read: plan or export with a member’s or an admin’s key',
    );
  if (answer.status >= 300) throw new ConfigApplyError(answer);
  const users = answer.body as { id: string; email: string; status: string }[];
  return new Map(users.filter((u) => u.status === 'active').map((u) => [u.id, u.email.toLowerCase()]));
}

/** The API's body of a policy of the document: each target's name resolved to its id. */
async function bodyOf(api: Api, doc: PolicyDoc, names: NameIndex) {
  const member = await memberResolver(api);
  return {
    name: doc.name,
    steps: doc.steps.map((step, i) => ({
      delay_seconds: step.delay_seconds,
      targets: step.targets.map((target, j) => {
        const { type, ref } = typed(target);
        const path = `steps[${i}].targets[${j}].${type}`;
        const id = type === 'user' ? member.id(ref, path) : resolveId(names, KEYS[type], ref, path);
        return { type, id };
      }),
    })),
    repeat: doc.repeat,
  };
}

/** Escalation policies (/v1/escalation-policies), named by their name. */
export const escalationPoliciesKind = defineKind<PolicyDoc>({
  key: 'escalation_policies',
  noun: 'escalation policy',
  schema,
  identity: (doc) => doc.name,
  // People are no objects of the document: an address no member has fails the policy's create or
  // update with the target named (memberResolver), as a schedule's members do.
  references: (doc) =>
    doc.steps.flatMap((step) =>
      step.targets.flatMap((target): Reference[] => {
        const { type, ref } = typed(target);
        return type === 'user' ? [] : [{ key: KEYS[type], identity: ref }];
      }),
    ),

  async read(api, names) {
    const { escalation_policies } = await expectOk<{ escalation_policies: PublicPolicy[] }>(api, {
      method: 'GET',
      path: '/v1/escalation-policies',
    });
    requireUniqueNames(escalation_policies);
    const pagesPeople = escalation_policies.some((p) =>
      p.steps.some((step) => step.targets.some((t) => t.type === 'user')),
    );
    const emails = pagesPeople ? await memberAddresses(api) : new Map<string, string>();
    return escalation_policies.map((policy) => ({ id: policy.id, doc: docOf(policy, emails, names) }));
  },

  async create(api, doc, names) {
    return (await postNew<{ id: string }>(api, '/v1/escalation-policies', await bodyOf(api, doc, names))).id;
  },

  async update(api, current, doc, names) {
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/escalation-policies/${seg(current.id)}`,
      body: await bodyOf(api, doc, names),
    });
  },

  // The API refuses (409) a policy a route or a team still uses, naming them: with prune, the
  // routes that leave go before it (deletes in reverse DOC_KEYS order).
  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/escalation-policies/${seg(current.id)}` });
  },
});
