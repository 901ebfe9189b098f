import * as z from 'zod';
import { memberRefSchema, memberResolver, resolveId } from '../config-doc/entity-refs.ts';
import {
  type Api,
  ConfigApplyError,
  defineKind,
  expectOk,
  type NameIndex,
  postNew,
  type Reference,
  seg,
} from '../config-doc/kind.ts';
import { createNameIndex, requireUniqueNames } from '../config-doc/names.ts';
import type { PublicTeam } from '../teams/team-responses.ts';
import { POLICY_LIMITS } from './policy-items.ts';
import { type PublicPolicy, policyBody } from './policy-schemas.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    escalation_policies: true;
  }
}

/**
 * Escalation policies in the document: the body of POST /v1/escalation-policies with each step's
 * targets named instead of given by id (`{schedule: <name>}`, `{user: <e-mail address>}`,
 * `{channel: <tenant channel name>}`, `{team: <name>}`); identity the policy's name. Policies come
 * after schedules, teams and channels (`after`), so a policy may page objects the same apply
 * creates, and before routes, which name their policy.
 *
 * A team's own escalation policy is said here, on the policy (`default_for_teams`, team names), as
 * a blueprint's default owner is said on its team: a policy may page a team, so the team naming its
 * policy would refer to a later kind and make a cycle no order of kinds applies in one pass. A team
 * is the default of one policy at most: two claiming it are refused when the document is read.
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
  default_for_teams: z
    .array(targetName)
    .max(200)
    .default([])
    .meta({
      description:
        'Teams, by name, whose escalation policy this is: routes that page the owner’s policy climb it for their entities',
    })
    // A set: as the API answers it, without order.
    .transform((teams) => [...new Set(teams)].sort()),
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

/**
 * A policy of the API as the document has it: people by address (a former member, who has none,
 * by user id), the rest by name; an id the index does not know stays an id (and fails a plan's
 * reference check); the teams whose policy it is by name.
 */
function docOf(policy: PublicPolicy, teams: PublicTeam[], names: NameIndex): PolicyDoc {
  const target = (t: PublicPolicy['steps'][number]['targets'][number]): TargetDoc => {
    if (t.type === 'user') return { user: t.email?.toLowerCase() ?? t.id };
    const name = names.identity(KEYS[t.type], t.id) ?? t.id;
    return t.type === 'schedule'
      ? { schedule: name }
      : t.type === 'channel'
        ? { channel: name }
        : { team: name };
  };
  return {
    name: policy.name,
    steps: policy.steps.map((step) => ({
      delay_seconds: step.delay_seconds,
      targets: step.targets.map(target),
    })),
    repeat: policy.repeat,
    default_for_teams: teams
      .filter((t) => t.escalation_policy_id === policy.id)
      .map((t) => t.name)
      .sort(),
  };
}

const listTeams = async (api: Api) =>
  (await expectOk<{ teams: PublicTeam[] }>(api, { method: 'GET', path: '/v1/teams' })).teams;

/** Times one team's policy is written again after another write to the team came first. */
const TEAM_WRITE_ATTEMPTS = 3;

/**
 * Makes the policy `policyId` the escalation policy of exactly the teams `wanted` (by name) among
 * those it can change: a named team gets it, a team that has it and is not named has none after.
 * A team whose policy is another one and is not named is left to that policy, so a document
 * moving a team from one policy to another works whichever of the two is applied first, and
 * apply runs a kind's objects side by side: a write that finds the team changed meanwhile (409)
 * reads it again and decides again. PUT takes the whole team, the rest carried over as read.
 */
async function syncTeams(api: Api, policyId: string, wanted: string[], names: NameIndex): Promise<void> {
  const ids = new Set(wanted.map((team, i) => resolveId(names, 'teams', team, `default_for_teams[${i}]`)));
  for (let team of await listTeams(api))
    for (let attempt = 1; ; attempt += 1) {
      const has = team.escalation_policy_id === policyId;
      if (has === ids.has(team.id)) break;
      const path = `/v1/teams/${seg(team.id)}`;
      const body = {
        name: team.name,
        members: team.members.map((m) => m.id),
        schedule_id: team.schedule_id,
        default_owner_of: team.default_owner_of,
        escalation_policy_id: has ? null : policyId,
      };
      const answer = await api({ method: 'PUT', path, body });
      if (answer.status < 300) break;
      if (answer.status !== 409 || attempt >= TEAM_WRITE_ATTEMPTS) throw new ConfigApplyError(answer);
      team = await expectOk<PublicTeam>(api, { method: 'GET', path });
    }
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
  after: ['schedules', 'channels', 'teams'],
  noun: 'escalation policy',
  schema,
  identity: (doc) => doc.name,
  // People are no objects of the document: an address no member has fails the policy's create or
  // update with the target named (memberResolver), as a schedule's members do.
  references: (doc) => [
    ...doc.steps.flatMap((step) =>
      step.targets.flatMap((target): Reference[] => {
        const { type, ref } = typed(target);
        return type === 'user' ? [] : [{ key: KEYS[type], identity: ref }];
      }),
    ),
    ...doc.default_for_teams.map((identity) => ({ key: 'teams' as const, identity })),
  ],
  claims: (doc) => doc.default_for_teams.map((team) => ({ field: 'default_for_teams', value: team })),

  async read(api, names) {
    const { escalation_policies } = await expectOk<{ escalation_policies: PublicPolicy[] }>(api, {
      method: 'GET',
      path: '/v1/escalation-policies',
    });
    requireUniqueNames('escalation policies', escalation_policies);
    const teams = await listTeams(api);
    return escalation_policies.map((policy) => ({ id: policy.id, doc: docOf(policy, teams, names) }));
  },

  async create(api, doc, names) {
    const { id } = await postNew<{ id: string }>(
      api,
      '/v1/escalation-policies',
      await bodyOf(api, doc, names),
    );
    try {
      await syncTeams(api, id, doc.default_for_teams, names);
    } catch (error) {
      // Atomic: the policy goes when a team could not take it (the teams that did let go first).
      await syncTeams(api, id, [], names).catch(() => undefined);
      await api({ method: 'DELETE', path: `/v1/escalation-policies/${seg(id)}` });
      throw error;
    }
    return id;
  },

  async update(api, current, doc, names) {
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/escalation-policies/${seg(current.id)}`,
      body: await bodyOf(api, doc, names),
    });
    await syncTeams(api, current.id, doc.default_for_teams, names);
  },

  // The API refuses (409) a policy a route or a team still uses, naming them: with prune, the
  // routes that leave go before it (deletes in the document's reverse order), and the teams it is the
  // policy of let go of it first (a policy that leaves the document is no team's policy any more).
  async remove(api, current) {
    await syncTeams(api, current.id, [], createNameIndex());
    await expectOk(api, { method: 'DELETE', path: `/v1/escalation-policies/${seg(current.id)}` });
  },
});
