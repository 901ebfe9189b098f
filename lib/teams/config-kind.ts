import * as z from 'zod';
import {
  entityRef,
  entityRefSchema,
  memberRef,
  memberRefSchema,
  memberResolver,
  resolveId,
} from '../config-doc/entity-refs.ts';
import { type Api, defineKind, expectOk, type NameIndex, postNew, seg } from '../config-doc/kind.ts';
import { requireUniqueNames } from '../config-doc/names.ts';
import { TEAM_LIMITS } from './team-items.ts';
import type { PublicTeam } from './team-responses.ts';
import { teamBody } from './team-schemas.ts';

declare module '../config-doc/kind.ts' {
  interface DocLists {
    teams: true;
  }
}

/**
 * Teams in the document: the body of POST /v1/teams with members by e-mail address (as schedules
 * name them), the schedule by name (`schedule`, for `schedule_id`), and the entities the team owns
 * (`owns`: entity references; each an owned_by relation from the entity to the team, written by
 * POST /v1/teams/{id}/entities); identity the team's name.
 *
 * The team's escalation policy is said on the policy (kinds/escalation_policies.ts,
 * `default_for_teams`): a create sets none and an update keeps whatever the team has, and the
 * policies, which come after teams in the document (a policy may page a team), set it.
 */

const { default_owner_of, name } = teamBody.shape;
const sorted = (list: string[]) => [...new Set(list)].sort();

const schema = z
  .strictObject({
    name,
    members: z.array(memberRefSchema).max(TEAM_LIMITS.members).default([]),
    schedule: z.string().min(1).max(100).nullable().default(null).meta({
      description: 'The team’s on-call schedule, by name: who_is_on_call answers from it',
    }),
    default_owner_of,
    owns: z.array(entityRefSchema).max(200).default([]).meta({
      description: 'Entities the team owns (owned_by relations to the team), as <blueprint>/<slug>',
    }),
  })
  .superRefine((doc, ctx) => {
    doc.members.forEach((ref, i) => {
      if (doc.members.indexOf(ref) !== i)
        ctx.addIssue({ code: 'custom', path: ['members', i], message: 'Listed twice.' });
    });
  })
  // The team as the API answers it: owned entities and default-owned blueprints without order.
  .transform((doc) => ({ ...doc, default_owner_of: sorted(doc.default_owner_of), owns: sorted(doc.owns) }));
type TeamDoc = z.output<typeof schema>;

/** A team of the API as the document has it; a schedule the index does not know is named by id (and fails a plan's reference check). */
function docOf(team: PublicTeam, names: NameIndex): TeamDoc {
  return {
    name: team.name,
    members: team.members.map(memberRef),
    schedule:
      team.schedule_id === null ? null : (names.identity('schedules', team.schedule_id) ?? team.schedule_id),
    default_owner_of: sorted(team.default_owner_of),
    owns: sorted(team.owns.map((o) => entityRef(o.entity))),
  };
}

/** The API's body of a team of the document, without its owned entities. */
async function bodyOf(api: Api, doc: TeamDoc, names: NameIndex) {
  const member = await memberResolver(api);
  return {
    name: doc.name,
    members: member.ids(doc.members, 'members'),
    schedule_id: doc.schedule === null ? null : resolveId(names, 'schedules', doc.schedule, 'schedule'),
    default_owner_of: doc.default_owner_of,
  };
}

/** Makes the team own exactly `owns`: adds the missing owned_by relations, removes the others (`before`, by reference and entity id). */
async function syncOwned(
  api: Api,
  teamId: string,
  owns: string[],
  before: { ref: string; id: string }[],
  names: NameIndex,
) {
  for (const [i, ref] of owns.entries())
    if (!before.some((b) => b.ref === ref))
      await expectOk(api, {
        method: 'POST',
        path: `/v1/teams/${seg(teamId)}/entities`,
        body: { entity_id: resolveId(names, 'entities', ref, `owns[${i}]`) },
      });
  for (const { ref, id } of before)
    if (!owns.includes(ref))
      await expectOk(api, { method: 'DELETE', path: `/v1/teams/${seg(teamId)}/entities/${seg(id)}` });
}

/** Teams (/v1/teams), named by their name. */
export const teamsKind = defineKind<TeamDoc>({
  key: 'teams',
  after: ['schedules', 'entities', 'blueprints'],
  noun: 'team',
  schema,
  identity: (doc) => doc.name,
  // Default-owned blueprints are references too: the API refuses a slug the account does not have.
  references: (doc) => [
    ...(doc.schedule === null ? [] : [{ key: 'schedules' as const, identity: doc.schedule }]),
    ...doc.owns.map((identity) => ({ key: 'entities' as const, identity })),
    ...doc.default_owner_of.map((identity) => ({ key: 'blueprints' as const, identity })),
  ],
  // A blueprint has one default owner (the API's rule), said before anything is applied.
  claims: (doc) => doc.default_owner_of.map((slug) => ({ field: 'default_owner_of', value: slug })),

  async read(api, names) {
    const { teams } = await expectOk<{ teams: PublicTeam[] }>(api, { method: 'GET', path: '/v1/teams' });
    requireUniqueNames('teams', teams);
    return teams.map((team) => ({ id: team.id, doc: docOf(team, names) }));
  },

  async create(api, doc, names) {
    const team = await postNew<{ id: string }>(api, '/v1/teams', {
      ...(await bodyOf(api, doc, names)),
      escalation_policy_id: null,
    });
    try {
      await syncOwned(api, team.id, doc.owns, [], names);
    } catch (error) {
      // Atomic: the team goes with its relations when one of them fails.
      await api({ method: 'DELETE', path: `/v1/teams/${seg(team.id)}` });
      throw error;
    }
    return team.id;
  },

  async update(api, current, doc, names) {
    // PUT takes the whole team: its escalation policy is carried over as the API has it.
    const team = await expectOk<PublicTeam>(api, { method: 'GET', path: `/v1/teams/${seg(current.id)}` });
    await expectOk(api, {
      method: 'PUT',
      path: `/v1/teams/${seg(current.id)}`,
      body: { ...(await bodyOf(api, doc, names)), escalation_policy_id: team.escalation_policy_id },
    });
    await syncOwned(
      api,
      current.id,
      doc.owns,
      team.owns.map((o) => ({ ref: entityRef(o.entity), id: o.entity.id })),
      names,
    );
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: `/v1/teams/${seg(current.id)}` });
  },
});
