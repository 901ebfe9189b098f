import type { PersonMessage } from '../contacts/reach.ts';
import type { IncidentRecord } from '../incidents/incident-items.ts';

/**
 * The links a page to a person carries to acknowledge (and resolve) the incident without signing
 * in (DECISIONS.md "On-call (wave 5)", ack links: another part of Vigil mints them; the runtime's
 * composition hands them in). Undefined: the page carries the console's link only.
 */
export type PageLinks = (
  incident: IncidentRecord,
  userId: string,
) => Promise<{ acknowledge: string; resolve?: string } | undefined>;

/** What one page says: the incident, the state its entity went to, why, and where the page comes from. */
export interface PageSubject {
  incident: IncidentRecord;
  /** The state the incident's opening change went to (down, degraded). */
  state: string;
  /** Why the entity is failing, as an escalation's channels are told it (redacted); null: nothing to say. */
  reason: string | null;
  /** The IANA zone the person reads times in (page-person.ts `personZone`). */
  timeZone: string;
  policyName: string;
  /** 0-based: the message says "step 1". */
  step: number;
  round: number;
}

/** `2 Mar 2026, 10:00 (Europe/Berlin)`: a stored ISO time as the person reads it. */
function zonedTime(iso: string, timeZone: string): string {
  const local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  return `${local.format(new Date(iso))} (${timeZone})`;
}

/** The console's page of the incident, when the deployment says where it is (VIGIL_PUBLIC_URL). */
const incidentUrl = (publicUrl: string | undefined, incidentId: string) =>
  publicUrl ? `${publicUrl}/incidents/${incidentId}` : undefined;

/**
 * The message of one page (subject, text for every kind, speech for a call), naming the entity,
 * its state, the incident and the policy's step, with the console's link and, when given, the
 * links to acknowledge and resolve. `deliveryId` is the page's key: the same for a redelivery.
 */
export async function pageMessage(
  subject: PageSubject,
  userId: string,
  deps: { publicUrl: string | undefined; links?: PageLinks | undefined; deliveryId: string },
): Promise<PersonMessage> {
  const { incident, state } = subject;
  const name = incident.entity_name;
  const step = `step ${subject.step + 1}${subject.round > 0 ? ` (round ${subject.round + 1})` : ''}`;
  const links = await deps.links?.(incident, userId);
  const console = incidentUrl(deps.publicUrl, incident.id);
  const text = [
    `${name} is ${state} since ${zonedTime(incident.opened_at, subject.timeZone)} and nobody has acknowledged it.`,
    ...(subject.reason ? [`Why: ${subject.reason}`] : []),
    `Incident ${incident.id}; escalation policy "${subject.policyName}", ${step}.`,
    ...(links ? [`Acknowledge: ${links.acknowledge}`] : []),
    ...(links?.resolve ? [`Resolve: ${links.resolve}`] : []),
    ...(console ? [`Open: ${console}`] : []),
  ].join('\n');
  return {
    subject: `[Vigil] ${name} is ${state}: page from "${subject.policyName}", ${step}`,
    text,
    speech: `This is Vigil. ${name} is ${state}, and nobody has acknowledged the incident. Acknowledge it from the message Vigil sent, or in the console.`,
    deliveryId: deps.deliveryId,
  };
}

/** How an incident ended, in words. */
const endedBy: Record<NonNullable<IncidentRecord['resolution']>, string> = {
  up: 'it is up again',
  manual: 'it was resolved by hand',
  entity_deleted: 'it was deleted',
};

/**
 * The message that tells a person paged for an incident that it is over (resolution.ts): the
 * entity, when and how it ended, in the person's zone, with the console's link.
 */
export function resolutionMessage(
  incident: IncidentRecord,
  timeZone: string,
  deps: { publicUrl: string | undefined; deliveryId: string },
): PersonMessage {
  const name = incident.entity_name;
  const how = endedBy[incident.resolution ?? 'up'];
  const console = incidentUrl(deps.publicUrl, incident.id);
  const at = zonedTime(incident.resolved_at ?? incident.opened_at, timeZone);
  return {
    subject: `[Vigil] Resolved: ${name}`,
    text: [
      `${name}'s incident is resolved since ${at}: ${how}. You were paged for it; nothing more is needed.`,
      `Incident ${incident.id}, opened ${zonedTime(incident.opened_at, timeZone)}.`,
      ...(console ? [`Open: ${console}`] : []),
    ].join('\n'),
    speech: `This is Vigil. The incident of ${name} you were paged for is resolved: ${how}.`,
    deliveryId: deps.deliveryId,
  };
}
