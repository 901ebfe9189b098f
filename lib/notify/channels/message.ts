import { type AlertMessage, clip, type MessageFact, type Tone } from '../../providers/message.ts';
import { humanDuration, payloadKindOf } from '../items/payload-kind.ts';
import type { Alert, Holding, HoldingDependent } from '../items/ports.ts';
import type { MessageTemplate } from './definition.ts';
import { renderTemplate, type TemplateValues } from './template.ts';
import { sampleAlert } from './template-sample.ts';

/**
 * The human side of an alert, shared by Slack, Discord and ntfy: a title and the lines under it.
 * Plain text; each channel escapes it for its own markup. Webhook and NATS carry the raw event.
 */

export type { AlertMessage, Tone } from '../../providers/message.ts';
export { clip, plainText } from '../../providers/message.ts';

const MAX_NAME = 200;
const MAX_ERROR = 500;

const toneOf = (state: string): Tone =>
  state === 'down' || state === 'degraded' || state === 'up' ? state : 'other';

/** A change to `up` out of `down` or `degraded` (DECISIONS.md's definition of a recovery). */
function isRecovery(alert: Alert): boolean {
  const { from_state, to_state } = alert.event;
  return to_state === 'up' && (from_state === 'down' || from_state === 'degraded');
}

function headline(alert: Alert, name: string): string {
  const to = alert.event.to_state;
  if (alert.kind === 'repeat') {
    const d = alert.downForSeconds;
    return d === undefined ? `${name} is still ${to}` : `${name} is still ${to} for ${humanDuration(d)}`;
  }
  if (alert.kind === 'escalation') return `Escalation: ${name} is ${to} and unacknowledged`;
  if (alert.kind === 'flapping') return flappingHeadline(alert, name);
  // A check failing on an entity already down (DECISIONS.md "Alert truth (wave 5)" Cause).
  if (alert.kind === 'also_failing') return `${name} is ${to}; also failing: ${alert.checkName}`;
  if (isRecovery(alert)) return `${name} recovered: it is up again`;
  return `${name} is ${to}`;
}

/** "X is flapping: 7 changes in 30 minutes; alerts held until stable" (issue 35). */
function flappingHeadline(alert: Alert, name: string): string {
  // The figures are gone once the check settled (a notice retried that late says less).
  if (!alert.flapping) return `${name} is flapping; alerts held until stable`;
  const minutes = Math.round(alert.flapping.window_seconds / 60);
  return `${name} is flapping: ${alert.flapping.changes} changes in ${minutes} minute${minutes === 1 ? '' : 's'}; alerts held until stable`;
}

/** Dependents a text names before "… and N more" (the webhook JSON lists up to 100). */
const NAMED_DEPENDENTS = 5;

function names(list: HoldingDependent[], total: number): string {
  const shown = list.slice(0, NAMED_DEPENDENTS).map((d) => clip(d.name, MAX_NAME));
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')}, … and ${more} more` : shown.join(', ');
}

/**
 * The root cause's sentence (holding.ts): "Orders DB is down; holding 4 dependents: Shop API,
 * Nightly Backup, …; status pages affected: Acme Shop", or on its recovery the all-clear.
 */
function holdingSentence(name: string, state: string, recovery: boolean, h: Holding): string {
  const pages = h.status_pages.map((p) => clip(p.title, MAX_NAME)).join(', ');
  const plural = (n: number) => `${n} dependent${n === 1 ? '' : 's'}`;
  const parts = recovery
    ? [
        `All clear: ${name} is up again`,
        ...(h.dependents_total > 0
          ? [`${plural(h.dependents_total)} up again: ${names(h.dependents, h.dependents_total)}`]
          : []),
        ...(h.still_down && h.still_down.length > 0
          ? [`still down: ${names(h.still_down, h.still_down.length)}`]
          : []),
      ]
    : [
        `${name} is ${state}`,
        `holding ${plural(h.dependents_total)}: ${names(h.dependents, h.dependents_total)}`,
      ];
  if (pages) parts.push(`status pages affected: ${pages}`);
  return parts.join('; ');
}

function noteOf(alert: Alert, name: string): string | undefined {
  const base = kindNote(alert);
  if (!alert.holding) return base;
  const sentence = holdingSentence(name, alert.event.to_state, isRecovery(alert), alert.holding);
  return base ? `${base} ${sentence}.` : `${sentence}.`;
}

function kindNote(alert: Alert): string | undefined {
  if (alert.kind === 'repeat') {
    const d = alert.downForSeconds;
    const since = d === undefined ? 'since the change below' : `for ${humanDuration(d)}`;
    return `Repeat: ${alert.event.to_state} ${since}, not resolved yet.`;
  }
  if (alert.kind === 'test') return 'This is a test message from Vigil: nothing changed.';
  if (alert.kind === 'escalation') {
    const minutes = alert.unacknowledgedMinutes ?? 0;
    const seconds = alert.unacknowledgedSeconds;
    const span =
      seconds === undefined || seconds >= 60
        ? `${minutes} minute${minutes === 1 ? '' : 's'}`
        : humanDuration(seconds);
    return `Escalated: the incident has been unacknowledged for ${span}.`;
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

/**
 * The console page of a scripted check's failing result (its steps and screenshots: the check's
 * page with `?result=`), or undefined without a public URL or such a result.
 */
function evidenceLink(alert: Alert, publicUrl: string | undefined): string | undefined {
  if (!publicUrl || !alert.evidenceResultId) return undefined;
  const base = publicUrl.replace(/\/+$/, '');
  const check = encodeURIComponent(alert.event.check_id);
  return `${base}/checks/${check}?result=${encodeURIComponent(alert.evidenceResultId)}`;
}

/** The test message of a shared channel attached to no check: it names no entity or check. */
function channelTestMessage(alert: Alert): AlertMessage {
  return {
    title: 'Test: Vigil reaches this channel',
    note: 'This is a test message from Vigil: nothing changed. The channel is attached to no check yet, so it names none.',
    facts: [
      { label: 'Kind', value: payloadKindOf(alert.kind, alert.event) },
      { label: 'Time', value: humanTime(alert.event.timestamp) },
    ],
    link: undefined,
    tone: toneOf('up'),
  };
}

/**
 * Whether the reason is the last error (on one line, maybe cut): the text then shows it once, as
 * "Last error" ("Why" when degraded). A recovery's reason (the rule) and its last error (what it
 * recovered from) differ, so both show.
 */
function saysSame(reason: string, error: string): boolean {
  const line = error.replace(/\s+/g, ' ').trim();
  return reason === line || (reason.endsWith('…') && line.startsWith(reason.slice(0, -1)));
}

/** Builds the human message of an alert: entity, check name and target, from → to, reason, last error, time and link. */
export function describeAlert(alert: Alert, publicUrl: string | undefined): AlertMessage {
  if (alert.kind === 'test' && alert.event.check_id === '') return channelTestMessage(alert);
  const name = clip(alert.entity.name || alert.event.entity_name, MAX_NAME);
  const title = alert.kind === 'test' ? `Test: ${headline(alert, name)}` : headline(alert, name);
  const facts: MessageFact[] = [
    // What the message is, in words every channel shows (payload-kind.ts): alert, recovery, repeat...
    { label: 'Kind', value: payloadKindOf(alert.kind, alert.event) },
    { label: 'Check', value: clip(alert.checkName, MAX_NAME) },
    { label: 'Target', value: clip(alert.checkLabel, MAX_NAME) },
    { label: 'State', value: `${alert.event.from_state} → ${alert.event.to_state}` },
  ];
  // Why the message is sent (alert-reason.ts): a rule or several checks get a line of their own;
  // a reason that is the last error is that line.
  if (alert.reason && !(alert.lastError && saysSame(alert.reason, alert.lastError)))
    facts.push({ label: 'Reason', value: clip(alert.reason, MAX_ERROR) });
  if (alert.lastError) {
    // A degraded alert's line says why (a slow answer, a certificate near expiry, a failing assertion).
    const label = alert.event.to_state === 'degraded' ? 'Why' : 'Last error';
    facts.push({ label, value: clip(alert.lastError, MAX_ERROR) });
  }
  // Checks that joined the open incident after the entity went down (issue 35: named, never paged).
  if (alert.alsoFailing?.length)
    facts.push({ label: 'Also failing', value: clip(alert.alsoFailing.join(', '), MAX_ERROR) });
  // A scripted check's failing result: its steps and screenshots in the console.
  const evidence = evidenceLink(alert, publicUrl);
  if (evidence) facts.push({ label: 'Evidence', value: evidence });
  // An outside alert's links back to its sender (a Prometheus graph, a Grafana panel).
  for (const l of alert.sourceLinks ?? []) facts.push({ label: clip(l.text, 60), value: l.href });
  facts.push({ label: 'Time', value: humanTime(alert.event.timestamp) });
  return {
    title,
    note: noteOf(alert, name),
    facts,
    link: consoleLink(alert, publicUrl),
    tone: toneOf(alert.event.to_state),
  };
}

/** A template's fields (template.ts TEMPLATE_FIELDS): from the alert, its default message and the public URL. */
export function templateValues(alert: Alert, message: AlertMessage, url: string | undefined): TemplateValues {
  const { event } = alert;
  const unacknowledged = alert.unacknowledgedSeconds ?? (alert.unacknowledgedMinutes ?? 0) * 60;
  return {
    entity_name: clip(alert.entity.name || event.entity_name, MAX_NAME),
    entity_slug: alert.entity.slug,
    blueprint_slug: alert.entity.blueprint_slug,
    check_name: clip(alert.checkName, MAX_NAME),
    check_label: clip(alert.checkLabel, MAX_NAME),
    from_state: event.from_state,
    to_state: event.to_state,
    kind: payloadKindOf(alert.kind, event),
    timestamp: event.timestamp,
    time: humanTime(event.timestamp),
    last_error: alert.lastError ? clip(alert.lastError, MAX_ERROR) : '',
    reason: alert.reason ? clip(alert.reason, MAX_ERROR) : '',
    also_failing: alert.alsoFailing?.length ? clip(alert.alsoFailing.join(', '), MAX_ERROR) : '',
    down_for:
      alert.kind === 'repeat' && alert.downForSeconds !== undefined
        ? humanDuration(alert.downForSeconds)
        : '',
    unacknowledged_for: alert.kind === 'escalation' ? humanDuration(unacknowledged) : '',
    link: message.link ?? '',
    evidence: evidenceLink(alert, url) ?? '',
    headline: message.title,
    note: message.note ?? '',
  };
}

const TEST_LINE = 'This is a test message from Vigil: nothing changed.';
const SAMPLE_TEST_LINE =
  'This is a test message from Vigil, rendered with a made-up event (Checkout API): nothing changed.';

/**
 * The message a channel sends for an alert: describeAlert's, or the channel's own template's
 * title and body when it has one. Every human-facing definition renders what this answers. The
 * rendered body replaces the note and the facts; the link and the tone stay. A test says it is one
 * (title and first line), and a shared channel's test attached to no check renders the made-up
 * event of template-sample.ts, so the test shows what the template makes.
 */
export function messageFor(
  channel: { template?: MessageTemplate | undefined },
  alert: Alert,
  publicUrl: string | undefined,
): AlertMessage {
  const template = channel.template;
  if (!template || (template.title === undefined && template.body === undefined))
    return describeAlert(alert, publicUrl);
  const sampled = alert.kind === 'test' && alert.event.check_id === '';
  const subject = sampled
    ? sampleAlert({ kind: 'test', timestamp: alert.event.timestamp, tenantId: alert.event.tenant_id })
    : alert;
  const url = sampled ? undefined : publicUrl; // the made-up entity has no console page
  const message = describeAlert(subject, url);
  const values = templateValues(subject, message, url);
  const title = template.title === undefined ? '' : oneLine(renderTemplate(template.title, values));
  const body = template.body === undefined ? '' : renderTemplate(template.body, values).trim();
  const test = alert.kind === 'test';
  return {
    ...message,
    title: title === '' ? message.title : test ? `Test: ${title}` : title,
    ...(body !== ''
      ? { note: test ? `${sampled ? SAMPLE_TEST_LINE : TEST_LINE}\n\n${body}` : body, facts: [] }
      : sampled
        ? { note: SAMPLE_TEST_LINE }
        : {}),
  };
}

/** A title is one line: a template's line breaks and runs of spaces become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
