import * as z from 'zod';
import { parseTransition, type TransitionRecord, tenantTransitionItems } from '../checks/results.ts';
import type { Table } from '../store/table.ts';
import type { AffectedRecord } from './affected-items.ts';
import type { AlsoFailingRecord } from './also-failing-items.ts';
import type { IncidentRecord } from './incident-items.ts';
import type { NoteRecord } from './incident-note-items.ts';

/**
 * An incident's timeline, built when it is read from the items that already record each step:
 * the entity's transitions, the delivery records of its checks' alerts, the executions its
 * transitions fired, plus the incident's own acknowledgement, notes and resolution. Nothing is
 * copied into the incident but what has no other home (acknowledgement, notes). Bounded: at most
 * TIMELINE_LIMITS.entries entries (the earliest), `timeline_truncated` says when more were left out.
 */

export const TIMELINE_LIMITS = {
  /** Entries a timeline answers at most. */
  entries: 500,
  /** Tenant transitions and delivery records one read scans at most. */
  scanned: 2000,
  /** Transitions whose action runs are looked up. */
  transitionsWithRuns: 20,
} as const;

const state = z.enum(['unknown', 'up', 'down', 'degraded']);

export const timelineEntrySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('transition'),
    at: z.string(),
    transition_id: z.string(),
    check_id: z.string(),
    from_state: state,
    to_state: state,
    reason: z.string(),
  }),
  z.strictObject({
    type: z.literal('alert'),
    at: z.string(),
    delivery_id: z.string(),
    kind: z.enum(['alert', 'repeat', 'test', 'escalation', 'flapping']),
    status: z.string().meta({ description: 'pending, retrying, sent, failed or skipped' }),
    reason: z.string().nullable().meta({ description: 'Why it was skipped (status skipped)' }),
    channel_id: z.string().nullable(),
    channel_type: z.string().nullable(),
  }),
  z.strictObject({
    type: z.literal('action'),
    at: z.string(),
    execution_id: z.string(),
    action_id: z.string(),
    dispatch_status: z.string(),
    status_code: z.number().int().nullable(),
  }),
  z.strictObject({ type: z.literal('acknowledgement'), at: z.string(), by: z.string() }),
  z
    .strictObject({
      type: z.literal('also_failing'),
      at: z.string(),
      check_id: z.string(),
      text: z.string().meta({ description: '"also failing: <check name>"' }),
    })
    .meta({
      description: 'A check that started failing while the entity was already down (it paged nobody)',
    }),
  z
    .strictObject({
      type: z.literal('affected'),
      at: z.string(),
      entity_id: z.string(),
      state: z.enum(['down', 'degraded', 'up']),
      own_incident_id: z.string().nullable().meta({
        description: 'The incident it opened of its own when this one resolved while it was still down',
      }),
      text: z.string().meta({
        description:
          '"affected: <entity> (<state>)"; "…, its own incident now" when this one resolved before it recovered',
      }),
    })
    .meta({
      description:
        'An entity that went down while this incident’s entity (which it depends on) was down: it joined this incident instead of opening its own',
    }),
  z
    .strictObject({
      type: z.literal('page'),
      at: z.string(),
      user_id: z.string().nullable().meta({ description: 'The person paged (null for a channel)' }),
      channel_id: z.string().nullable().meta({ description: 'The channel paged (null for a person)' }),
      contact_kind: z
        .string()
        .nullable()
        .meta({ description: 'By what: email, sms, voice, …, or the channel’s type; null when unreachable' }),
      policy_id: z.string(),
      round: z.number().int().meta({ description: '0 for the first climb of the policy, then each repeat' }),
      step: z.number().int().meta({ description: 'The policy’s step, from 0' }),
      target: z.strictObject({ type: z.string(), id: z.string() }),
      outcome: z
        .string()
        .meta({ description: 'pending, sent, failed, queued (a channel’s delivery) or unreachable' }),
      error: z.string().nullable(),
    })
    .meta({
      description: 'One page of an escalation policy’s climb: who, by what, at which step, with what outcome',
    }),
  z.strictObject({ type: z.literal('note'), at: z.string(), by: z.string(), text: z.string() }),
  z.strictObject({
    type: z.literal('resolution'),
    at: z.string(),
    transition_id: z.string().nullable().meta({
      description: 'The transition back to up; null when the entity was deleted or it was resolved by hand',
    }),
    reason: z.string().meta({
      description: 'Why it resolved: the entity is up again, was deleted, or it was resolved by hand',
    }),
  }),
]);
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

/** The steps other features record, read through their owners (lib/notify and lib/actions contribute them; the app wires them into lib/incidents/compose.ts). */
export interface TimelineSources {
  /** Alerts (sent, failed or skipped) of the entity carrying one of `transitionIds`, in the time span. */
  alerts(
    tenantId: string,
    input: {
      entityId: string;
      transitionIds: ReadonlySet<string>;
      fromMs: number;
      toMs: number;
      maxScanned: number;
    },
  ): Promise<{ entries: TimelineEntry[]; truncated: boolean }>;
  /** The executions the transitions fired (state_change actions). */
  actionRuns(tenantId: string, transitions: readonly TransitionRecord[]): Promise<TimelineEntry[]>;
  /** The pages escalation policies sent for the incident (lib/escalation). */
  pages?(tenantId: string, incidentId: string): Promise<TimelineEntry[]>;
}

/** The entity's transitions from the incident's opening to its resolution (or now), oldest first. */
async function incidentTransitions(
  table: Table,
  incident: IncidentRecord,
): Promise<{ transitions: TransitionRecord[]; truncated: boolean }> {
  const transitions: TransitionRecord[] = [];
  const range = { from: incident.opening_transition_id, to: incident.resolving_transition_id ?? 'trn_~' };
  let scanned = 0;
  let cursor: string | undefined;
  do {
    const page = await tenantTransitionItems(table, incident.tenant_id, {
      range,
      direction: 'asc',
      limit: Math.min(1000, TIMELINE_LIMITS.scanned - scanned),
      cursor,
    });
    scanned += page.items.length;
    for (const item of page.items) {
      if (item.entity_id !== incident.entity_id) continue;
      const t = parseTransition(item);
      if (t.kind === 'entity') transitions.push(t);
    }
    cursor = page.cursor;
  } while (cursor && scanned < TIMELINE_LIMITS.scanned);
  return { transitions, truncated: cursor !== undefined };
}

/** The resolution entry's reason, by what resolved the incident. */
const RESOLUTION_REASONS = {
  up: 'the entity is up again',
  entity_deleted: 'the entity was deleted',
  manual: 'resolved by hand',
} as const satisfies Record<NonNullable<IncidentRecord['resolution']>, string>;

const transitionEntry = (t: TransitionRecord): TimelineEntry => ({
  type: 'transition',
  at: t.created_at,
  transition_id: t.id,
  check_id: t.check_id,
  from_state: t.from_state,
  to_state: t.to_state,
  reason: t.reason,
});

/** The steps of one affected entity: its join, its last change of state, its own incident. */
function affectedEntries(incident: IncidentRecord, a: AffectedRecord): TimelineEntry[] {
  const entry = (
    at: string,
    state: AffectedRecord['state'],
    own: string | null,
    tail = '',
  ): TimelineEntry => ({
    type: 'affected',
    at,
    entity_id: a.entity_id,
    state,
    own_incident_id: own,
    text: `affected: ${a.entity_name} (${state})${tail}`,
  });
  const steps = [entry(a.joined_at, a.joined_state, null)];
  if (a.at !== a.joined_at || a.state !== a.joined_state) steps.push(entry(a.at, a.state, null));
  if (a.own_incident_id !== undefined)
    steps.push(entry(incident.resolved_at ?? a.at, a.state, a.own_incident_id, ', its own incident now'));
  return steps;
}

/** The timeline of `incident`, oldest first, and whether entries were left out. */
export async function buildTimeline(
  deps: { table: Table; sources: TimelineSources; nowMs: number },
  incident: IncidentRecord,
  notes: readonly NoteRecord[],
  alsoFailing: readonly AlsoFailingRecord[] = [],
  affected: readonly AffectedRecord[] = [],
): Promise<{ timeline: TimelineEntry[]; truncated: boolean }> {
  const read = await incidentTransitions(deps.table, incident);
  const fromMs = Date.parse(incident.opened_at);
  const toMs = incident.resolved_at ? Date.parse(incident.resolved_at) : deps.nowMs;
  const [alerts, runs, pages] = await Promise.all([
    deps.sources.alerts(incident.tenant_id, {
      entityId: incident.entity_id,
      transitionIds: new Set(read.transitions.map((t) => t.id)),
      fromMs,
      toMs,
      maxScanned: TIMELINE_LIMITS.scanned,
    }),
    deps.sources.actionRuns(
      incident.tenant_id,
      read.transitions.slice(0, TIMELINE_LIMITS.transitionsWithRuns),
    ),
    deps.sources.pages?.(incident.tenant_id, incident.id) ?? [],
  ]);
  const entries: TimelineEntry[] = [
    ...read.transitions.map(transitionEntry),
    ...alerts.entries,
    ...runs,
    ...pages,
    ...(incident.acknowledged_at && incident.acknowledged_by
      ? [{ type: 'acknowledgement' as const, at: incident.acknowledged_at, by: incident.acknowledged_by }]
      : []),
    ...notes.map((n): TimelineEntry => ({ type: 'note', at: n.created_at, by: n.created_by, text: n.text })),
    ...alsoFailing.map(
      (a): TimelineEntry => ({
        type: 'also_failing',
        at: a.at,
        check_id: a.check_id,
        text: `also failing: ${a.check_name}`,
      }),
    ),
    ...affected.flatMap((a) => affectedEntries(incident, a)),
    ...(incident.resolved_at
      ? [
          {
            type: 'resolution' as const,
            at: incident.resolved_at,
            transition_id: incident.resolving_transition_id,
            reason:
              RESOLUTION_REASONS[incident.resolution ?? 'up'] +
              (incident.resolved_by ? ` by ${incident.resolved_by}` : ''),
          },
        ]
      : []),
  ];
  // A stable sort keeps each source's own order among entries of the same instant.
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const truncated = read.truncated || alerts.truncated || entries.length > TIMELINE_LIMITS.entries;
  return { timeline: entries.slice(0, TIMELINE_LIMITS.entries), truncated };
}
