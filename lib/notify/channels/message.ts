import type { Alert } from '../ports.ts';

/**
 * The human side of an alert, shared by Slack, Discord and ntfy: a title and the lines under it.
 * Plain text; each channel escapes it for its own markup. Webhook and NATS carry the raw event.
 */

/** The state an alert reports, as each channel colours and tags it. */
export type Tone = 'down' | 'degraded' | 'up' | 'other';

/** One labelled line of a message ("Check", "Target", "State", "Last error", "Time"). */
export interface MessageFact {
  label: string;
  value: string;
}

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

const MAX_NAME = 200;
const MAX_ERROR = 500;

/** Text cut to `max` characters with an ellipsis; names and errors come from users and targets. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function toneOf(state: string): Tone {
  return state === 'down' || state === 'degraded' || state === 'up' ? state : 'other';
}

/** A change to `up` out of `down` or `degraded` (DECISIONS.md's definition of a recovery). */
export function isRecovery(alert: Alert): boolean {
  const { from_state, to_state } = alert.event;
  return to_state === 'up' && (from_state === 'down' || from_state === 'degraded');
}

function headline(alert: Alert, name: string): string {
  const to = alert.event.to_state;
  if (alert.kind === 'repeat') return `${name} is still ${to}`;
  if (alert.kind === 'escalation') return `Escalation: ${name} is ${to} and unacknowledged`;
  if (isRecovery(alert)) return `${name} recovered: it is up again`;
  return `${name} is ${to}`;
}

function noteOf(alert: Alert): string | undefined {
  if (alert.kind === 'repeat') return `Reminder: ${alert.event.to_state} since the change below.`;
  if (alert.kind === 'test') return 'This is a test message from Vigil: nothing changed.';
  if (alert.kind === 'escalation') {
    const minutes = alert.unacknowledgedMinutes ?? 0;
    return `Escalated: the incident has been unacknowledged for ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return undefined;
}

/** "2026-01-01 12:00:00 UTC": the event time without milliseconds, for humans. */
export function humanTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

/** The console page of the alert's entity, or undefined without a public URL. */
export function consoleLink(alert: Alert, publicUrl: string | undefined): string | undefined {
  if (!publicUrl) return undefined;
  const base = publicUrl.replace(/\/+$/, '');
  const { blueprint_slug, slug } = alert.entity;
  return `${base}/entities/${encodeURIComponent(blueprint_slug)}/${encodeURIComponent(slug)}`;
}

/** Builds the human message of an alert: entity, check name and target, from → to, last error, time and link. */
export function describeAlert(alert: Alert, publicUrl: string | undefined): AlertMessage {
  const name = clip(alert.entity.name || alert.event.entity_name, MAX_NAME);
  const title = alert.kind === 'test' ? `Test: ${headline(alert, name)}` : headline(alert, name);
  const facts: MessageFact[] = [
    { label: 'Check', value: clip(alert.checkName, MAX_NAME) },
    { label: 'Target', value: clip(alert.checkLabel, MAX_NAME) },
    { label: 'State', value: `${alert.event.from_state} → ${alert.event.to_state}` },
  ];
  if (alert.lastError) {
    // A degraded alert's line says why (a slow answer, a certificate near expiry, a failing assertion).
    const label = alert.event.to_state === 'degraded' ? 'Why' : 'Last error';
    facts.push({ label, value: clip(alert.lastError, MAX_ERROR) });
  }
  // Checks that joined the open incident after the entity went down (issue 35: named, never paged).
  if (alert.alsoFailing?.length)
    facts.push({ label: 'Also failing', value: clip(alert.alsoFailing.join(', '), MAX_ERROR) });
  facts.push({ label: 'Time', value: humanTime(alert.event.timestamp) });
  return {
    title,
    note: noteOf(alert),
    facts,
    link: consoleLink(alert, publicUrl),
    tone: toneOf(alert.event.to_state),
  };
}

/** The message as plain lines: the fallback text of Slack and the body of ntfy. */
export function plainText(message: AlertMessage, withTitle: boolean): string {
  const lines = withTitle ? [message.title] : [];
  if (message.note) lines.push(message.note);
  for (const fact of message.facts) lines.push(`${fact.label}: ${fact.value}`);
  if (message.link) lines.push(`Open in Vigil: ${message.link}`);
  return lines.join('\n');
}
