import { clip, type DigestMessage, type Tone } from '../../providers/message.ts';
import type { Digest } from '../items/ports.ts';
import { humanTime } from './message.ts';

/**
 * The human side of a digest, shared by Slack, Discord, ntfy and email: a title, summary lines
 * ("host: 990 entities down: Web node 1, Web node 2, … and 978 more", "host: 989 recovered") and
 * one line per event of the part. Each channel keeps as many event lines as its size limits allow
 * and says how many it left out. Webhook and NATS carry the machine payload (digestPayload).
 */

/** Names a summary line shows before "… and N more". */
const NAMES_SHOWN = 12;
const MAX_NAME = 100;
/** An event line's reason is cut shorter than a payload's (300): more lines fit a chat message. */
const LINE_REASON = 160;

export type { DigestMessage } from '../../providers/message.ts';
export { linesWithin } from '../../providers/message.ts';

function namesLine(names: string[], total: number): string {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => clip(name, MAX_NAME));
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')}, … and ${more} more` : shown.join(', ');
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The digest's title, summary and event lines. */
export function describeDigest(digest: Digest): DigestMessage {
  const { name } = digest.group;
  const namesIn = (to: string) =>
    digest.events.filter((e) => e.event.to_state === to).map((e) => e.event.entity_name);
  const summary: string[] = [];
  for (const state of ['down', 'degraded'] as const) {
    const count = digest.counts[state];
    if (count > 0)
      summary.push(
        `${name}: ${plural(count, 'entity', 'entities')} ${state}: ${namesLine(namesIn(state), count)}`,
      );
  }
  if (digest.counts.up > 0) summary.push(`${name}: ${digest.counts.up} recovered`);
  const part = digest.parts > 1 ? ` (part ${digest.part} of ${digest.parts})` : '';
  const heads = [
    digest.counts.down > 0 ? `${digest.counts.down} down` : '',
    digest.counts.degraded > 0 ? `${digest.counts.degraded} degraded` : '',
    digest.counts.up > 0 ? `${digest.counts.up} recovered` : '',
  ].filter(Boolean);
  const tone: Tone =
    digest.counts.down > 0
      ? 'down'
      : digest.counts.degraded > 0
        ? 'degraded'
        : digest.counts.up > 0
          ? 'up'
          : 'other';
  return {
    title: `Digest: ${name}: ${heads.join(', ') || 'no changes'}${part}`,
    summary,
    lines: digest.events.map(
      ({ event, reason }) =>
        `${clip(event.entity_name, MAX_NAME)}: ${event.from_state} → ${event.to_state} (${humanTime(event.timestamp)})${reason ? `: ${clip(reason, LINE_REASON)}` : ''}`,
    ),
    tone,
  };
}

/** The webhook and NATS body of a digest part (DECISIONS.md "Alert model (wave 4)"). */
export function digestPayload(digest: Digest, events = digest.events): Record<string, unknown> {
  return {
    kind: 'digest',
    group: digest.group,
    counts: digest.counts,
    events: events.map(({ event, kind, reason }) => ({ ...event, kind, reason: reason ?? null })),
    part: digest.part,
    parts: digest.parts,
  };
}
