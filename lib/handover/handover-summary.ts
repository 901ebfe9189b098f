import type { User } from '../auth/records.ts';
import type { PersonMessage } from '../contacts/reach.ts';
import type { IncidentRecord } from '../incidents/incident-items.ts';
import type { Handoff } from '../oncall/handoffs.ts';

/**
 * The text of a handover summary (pure): who hands over to whom, the incidents open now, and those
 * opened in the outgoing shift, with their state. Times in the schedule's zone.
 */

/** At most this many incidents are listed per part; the count says how many there are. */
const LISTED = 10;

export interface SummaryInput {
  scheduleName: string;
  timeZone: string;
  handoff: Handoff;
  /** Whose summary it is: the outgoing or the incoming person. */
  role: 'outgoing' | 'incoming';
  users: readonly User[];
  /** Which incidents: those of the entities whose teams use the schedule, or the whole account's. */
  scope: 'owners' | 'account';
  open: readonly IncidentRecord[];
  openedInShift: readonly IncidentRecord[];
}

/** `2026-11-27 09:00` in `timeZone`. */
function zonedTime(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(ms);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

const nameOf = (users: readonly User[], id: string | null) => {
  if (id === null) return 'nobody';
  const user = users.find((u) => u.id === id);
  return user ? user.name.trim() || user.email : 'a former member';
};

/** The message of one person's summary. */
export function handoverMessage(input: SummaryInput, deliveryId: string): PersonMessage {
  const { handoff, timeZone, users } = input;
  const at = (iso: string) => zonedTime(Date.parse(iso), timeZone);
  const when = `${zonedTime(handoff.at, timeZone)} (${timeZone})`;
  const list = (records: readonly IncidentRecord[], line: (r: IncidentRecord) => string) =>
    records.length === 0 ? ['- none'] : records.slice(0, LISTED).map((r) => `- ${r.entity_name}: ${line(r)}`);
  const stateOf = (r: IncidentRecord) =>
    r.state === 'acknowledged'
      ? `acknowledged by ${nameOf(users, r.acknowledged_by)} at ${at(r.acknowledged_at ?? r.opened_at)}`
      : r.state === 'resolved'
        ? `resolved at ${at(r.resolved_at ?? r.opened_at)}`
        : 'open, not acknowledged';
  const whose =
    input.scope === 'owners' ? 'of the entities whose teams this schedule covers' : 'of the account';
  const headline =
    input.role === 'incoming'
      ? `You are on call for ${input.scheduleName} from ${when}, taking over from ${nameOf(users, handoff.outgoing)}.`
      : `Your on-call shift of ${input.scheduleName} ended at ${when}; ${nameOf(users, handoff.incoming)} is on call now.`;
  const lines = [
    headline,
    '',
    `Open incidents now ${whose} (${input.open.length}):`,
    ...list(input.open, (r) => `${stateOf(r)}; open since ${at(r.opened_at)}`),
    '',
    `Opened during the outgoing shift, since ${zonedTime(handoff.since, timeZone)} (${input.openedInShift.length}):`,
    ...list(input.openedInShift, (r) => `opened at ${at(r.opened_at)}, ${stateOf(r)}`),
  ];
  const subject =
    input.role === 'incoming'
      ? `[Vigil] Handover: you are on call for ${input.scheduleName}`
      : `[Vigil] Handover: your shift of ${input.scheduleName} ended`;
  return {
    subject,
    text: `${lines.join('\n')}\n`,
    speech: `${headline} ${input.open.length} incidents are open.`,
    deliveryId,
  };
}
