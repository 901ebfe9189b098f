/**
 * The human side of an alert and of a digest part as a provider receives them, already written
 * (lib/notify/channels/message.ts describeAlert and messageFor, the channel's template applied;
 * digest-message.ts describeDigest): plain text, which each provider escapes for its own markup
 * and keeps within its own limits with the helpers below.
 */

/** The state an alert reports, as each channel colours and tags it. */
export type Tone = 'down' | 'degraded' | 'up' | 'other';

/** One labelled line of a message ("Check", "Target", "State", "Last error", "Time"). */
export type MessageFact = { label: string; value: string };

/** What every human-facing channel renders. */
export interface AlertMessage {
  title: string;
  /** A sentence under the title for repeats, tests and escalations; undefined for a plain alert. */
  note: string | undefined;
  facts: MessageFact[];
  /** The entity in the web console, when VIGIL_PUBLIC_URL is set. */
  link: string | undefined;
  tone: Tone;
}

/** A digest part: its title, summary lines and one line per event of the part. */
export interface DigestMessage {
  title: string;
  summary: string[];
  /** One per event of the part: "Web node 1: up → down (2026-01-01 12:00:00 UTC): connect ECONNREFUSED". */
  lines: string[];
  tone: Tone;
}

/** Text cut to `max` characters with an ellipsis; names and errors come from users and targets. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The message as plain lines: the fallback text of Slack and the body of ntfy. */
export function plainText(message: AlertMessage, withTitle: boolean): string {
  const lines = withTitle ? [message.title] : [];
  if (message.note) lines.push(message.note);
  for (const fact of message.facts) lines.push(`${fact.label}: ${fact.value}`);
  if (message.link) lines.push(`Open in Vigil: ${message.link}`);
  return lines.join('\n');
}

/**
 * As many of `lines` as fit in `budget` (measured by `size`, a separator each), plus a closing
 * "… and N more in this digest" when some were left out (its room kept within the budget).
 */
export function linesWithin(lines: string[], budget: number, size: (text: string) => number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const tail = `… and ${lines.length - i - 1} more in this digest`;
    const rest = i + 1 < lines.length ? size(tail) + 1 : 0;
    if (used + size(line) + 1 + rest > budget) {
      kept.push(`… and ${lines.length - i} more in this digest`);
      return kept;
    }
    kept.push(line);
    used += size(line) + 1;
  }
  return kept;
}
