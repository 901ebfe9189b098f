import type { Principal } from '../../domain/principal.ts';
import { idSchema } from '../../http/route-schemas.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { fencedData, intArg, invalidPrompt, isoTimeArg, type PromptArgSpec, slugArg } from './prompt-args.ts';

/**
 * The built-in prompts: each a conversation opener that names the tools to call, with the facts
 * of the tenant it is about (an incident, an entity) read for the caller, so a prompt about another
 * tenant's incident is refused as unknown. A prompt is listed for a caller who has every tool it
 * leads to (`tools`), as the toolsets offer them.
 */

export type PromptDeps = Pick<BuiltinDeps, 'incidents' | 'entities'>;

export interface BuiltinPrompt {
  name: string;
  title: string;
  description: string;
  args: readonly PromptArgSpec[];
  /** The tools it leads to: listed only when the caller has them all. */
  tools: readonly string[];
  /** The opening message, from parsed arguments. */
  text(deps: PromptDeps, caller: Principal, args: Record<string, unknown>): Promise<string>;
}

/** Runs `read`; the tenant's NotFound becomes the prompt's invalid argument. */
async function known<T>(read: () => Promise<T>, what: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFoundError) throw invalidPrompt(`unknown ${what}`);
    throw error;
  }
}

const entityArgs: PromptArgSpec[] = [
  {
    name: 'blueprint_slug',
    description: 'The entity’s blueprint (service, database…)',
    required: true,
    schema: slugArg,
  },
  { name: 'entity_slug', description: 'The entity’s slug', required: true, schema: slugArg },
];

const triageIncident: BuiltinPrompt = {
  name: 'triage_incident',
  title: 'Triage this incident',
  description:
    'Find what is broken in an incident, its likely cause and what it affects, without changing anything.',
  args: [
    {
      name: 'incident_id',
      description: 'The incident (inc_…), as list_incidents shows it',
      required: true,
      schema: idSchema('inc'),
    },
  ],
  tools: ['list_incidents', 'explain_entity_state', 'get_blast_radius'],
  async text(deps, caller, args) {
    const id = String(args.incident_id);
    const incident = await known(() => deps.incidents.get(caller, id), `incident ${id}`);
    const ack = incident.acknowledged_at ? `, acknowledged at ${incident.acknowledged_at}` : '';
    const maintenance = incident.in_maintenance ? ' It opened during a maintenance window.' : '';
    const facts = `Incident ${incident.id} of the entity named below is ${incident.state}: opened at ${incident.opened_at}${ack}.${maintenance}`;
    const name = fencedData('The entity’s name', incident.entity_name);
    if (incident.blueprint_slug === null || incident.entity_slug === null)
      return `${facts} Its entity has been deleted since. Call list_incidents with entity_id=${incident.entity_id} to see its history, then tell me what happened.\n${name}`;
    const ref = `blueprint_slug=${incident.blueprint_slug} and entity_slug=${incident.entity_slug}`;
    return [
      `Triage this incident. ${facts}`,
      name,
      `1. Call explain_entity_state with ${ref}: which checks fail, why, since when, and whether an upstream entity is a possible cause.`,
      `2. Call get_blast_radius with ${ref}: what depends on it and is affected.`,
      `3. Call list_incidents with entity_id=${incident.entity_id}: has it failed like this before?`,
      'Then tell me in a few sentences what is broken, the likely cause, what is affected and the next step. Change nothing (acknowledge, resolve, silence) unless I ask.',
    ].join('\n');
  },
};

const whyWasIPaged: BuiltinPrompt = {
  name: 'why_was_i_paged',
  title: 'Why was I paged',
  description:
    'Explain the alerts of the last hours: which entities changed state, why, and whether it is over.',
  args: [
    {
      name: 'hours',
      description: 'How far back to look (1 to 168; 24 when left out)',
      required: false,
      schema: intArg(1, 168),
    },
  ],
  tools: ['list_incidents', 'explain_entity_state'],
  async text(_deps, _caller, args) {
    const hours = typeof args.hours === 'number' ? args.hours : 24;
    return [
      `I was paged in the last ${hours} h. Why?`,
      `1. Call list_incidents with hours=${hours}: the entity state changes of that time, newest first.`,
      '2. Call list_incidents with state=open, then with state=acknowledged: what is still going on.',
      '3. For each entity that went down or degraded, call explain_entity_state with its blueprint_slug and entity_slug: the failing checks, their reasons, and upstream causes.',
      'Then tell me which alerts belong together (one cause), which are still open, and whether anyone needs to act now.',
    ].join('\n');
  },
};

const prepareMaintenance: BuiltinPrompt = {
  name: 'prepare_maintenance_window',
  title: 'Prepare a maintenance window',
  description:
    'Draft a maintenance window for an entity: what it should cover, checked against its blast radius, for you to confirm.',
  args: [
    ...entityArgs,
    {
      name: 'starts_at',
      description: 'When the work starts (ISO 8601 UTC)',
      required: false,
      schema: isoTimeArg,
    },
    {
      name: 'duration_minutes',
      description: 'How long it lasts (1 to 10080 minutes)',
      required: false,
      schema: intArg(1, 10_080),
    },
  ],
  tools: ['get_blast_radius', 'list_maintenance', 'create_maintenance'],
  async text(deps, caller, args) {
    const [bp, slug] = [String(args.blueprint_slug), String(args.entity_slug)];
    const entity = await known(() => deps.entities.get(caller.tenantId, bp, slug), `entity ${bp}/${slug}`);
    const when = typeof args.starts_at === 'string' ? `starting at ${args.starts_at}` : 'starting when I say';
    const howLong =
      typeof args.duration_minutes === 'number'
        ? `for ${args.duration_minutes} minutes`
        : 'for a time we agree on';
    return [
      `Prepare a maintenance window for the entity ${bp}/${slug} (now ${entity.state}, id ${entity.id}), ${when}, ${howLong}.`,
      fencedData('Its name', entity.name),
      `1. Call get_blast_radius with blueprint_slug=${bp} and entity_slug=${slug}: whether its dependents should be covered too (include_dependents).`,
      '2. Call list_maintenance: whether a window already covers it then.',
      `3. Draft the arguments of create_maintenance (name, entity_ids [${entity.id}], include_dependents, starts_at, ends_at) and show them to me.`,
      'Call create_maintenance only after I confirm the draft.',
    ].join('\n');
  },
};

/** Every built-in prompt. */
export const BUILTIN_PROMPTS: readonly BuiltinPrompt[] = [triageIncident, whyWasIPaged, prepareMaintenance];
