import { escapeHtml } from '../html/html-text.ts';
import { renderMarkdown } from '../html/markdown.ts';
import type { PageIncidentRecord } from '../items/page-incident-items.ts';

/**
 * The emails a page's subscribers get: the confirmation of a subscription, a notice of an
 * incident update (its Markdown body as text and rendered HTML, the page's link, the manage link,
 * and the RFC 8058 headers that let a mail client unsubscribe in one click), and a notice of a
 * maintenance window's announcement, start and end.
 */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

const STATUS_WORDS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};

/**
 * One header line: no control character (C0, DEL, C1: a line break, a tab, an escape, a NUL a
 * mail client would show or cut at) and no Unicode line or paragraph separator, each run one
 * space; at most `max` characters.
 */
function headerText(text: string, max = 200): string {
  const line = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function document(title: string, body: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body><h1>${escapeHtml(title)}</h1>`,
    body,
    '</body></html>',
  ].join('\n');
}

/** The confirmation email: the link, how long it works, and how to refuse (only the page's title is the tenant's text). */
export function confirmationMail(
  pageTitle: string,
  link: string,
  ttlDays: number,
  webhook: string | null,
): MailContent {
  const what = webhook ? `calls to the webhook ${webhook}` : 'emails';
  const lines = [
    `Someone asked for ${what} about incidents on the status page "${pageTitle}", confirmed by this address.`,
    'Nothing is sent until you confirm. To confirm, open this link and press Confirm:',
    link,
    `The link works once, for ${ttlDays} days. If you did not ask for this, ignore this email.`,
  ];
  return {
    subject: headerText(`Confirm updates of ${pageTitle}`),
    text: `${lines.join('\n\n')}\n`,
    html: document(
      `Confirm updates of ${pageTitle}`,
      `<p>${escapeHtml(lines[0] ?? '')}</p><p>${escapeHtml(lines[1] ?? '')}</p>` +
        `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>${escapeHtml(lines[3] ?? '')}</p>`,
    ),
    headers: {},
  };
}

/** The RFC 8058 headers of a notice: a mail client's one-click unsubscribe. */
const unsubscribeHeaders = (manageUrl: string) => ({
  'List-Unsubscribe': `<${manageUrl}>`,
  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
});

/** The footer of a notice: the page and the manage link. */
const footer = (pageUrl: string, manageUrl: string) => ({
  text: [`Status page: ${pageUrl}`, `Manage or unsubscribe: ${manageUrl}`, ''],
  html: `<p><a href="${escapeHtml(pageUrl)}">Status page</a> · <a href="${escapeHtml(manageUrl)}">Manage or unsubscribe</a></p>`,
});

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const MAINTENANCE_WORDS = {
  announced: { subject: 'Scheduled maintenance', line: 'Maintenance is scheduled' },
  started: { subject: 'Maintenance in progress', line: 'Maintenance has started' },
  ended: { subject: 'Maintenance completed', line: 'Maintenance has ended' },
} as const;

/** A notice of a maintenance moment: what, when, which of the page's components, and its public note. */
export function maintenanceMail(input: {
  pageTitle: string;
  pageUrl: string;
  manageUrl: string;
  name: string;
  moment: keyof typeof MAINTENANCE_WORDS;
  startMs: number;
  endMs: number;
  publicNote: string | null;
  components: string[];
}): MailContent {
  const words = MAINTENANCE_WORDS[input.moment];
  const when = `${utc(input.startMs)} to ${utc(input.endMs)}`;
  const affects = input.components.length > 0 ? `Affects: ${input.components.join(', ')}` : '';
  const end = footer(input.pageUrl, input.manageUrl);
  return {
    subject: headerText(`[${input.pageTitle}] ${words.subject}: ${input.name}`),
    text: [
      `${words.line}: ${input.name}`,
      `When: ${when}`,
      ...(affects ? [affects] : []),
      '',
      ...(input.publicNote ? [input.publicNote, ''] : []),
      ...end.text,
    ].join('\n'),
    html: document(
      `${words.subject}: ${input.name}`,
      `<p>${escapeHtml(input.pageTitle)} · ${escapeHtml(when)}</p>` +
        (affects ? `<p>${escapeHtml(affects)}</p>` : '') +
        (input.publicNote ? renderMarkdown(input.publicNote) : '') +
        end.html,
    ),
    headers: unsubscribeHeaders(input.manageUrl),
  };
}

/** A notice of one update: subject with the page, the incident's title and the update's status. */
export function noticeMail(input: {
  pageTitle: string;
  pageUrl: string;
  manageUrl: string;
  incident: PageIncidentRecord;
  update: PageIncidentRecord['updates'][number];
}): MailContent {
  const { incident, update } = input;
  const status = STATUS_WORDS[update.status] ?? update.status;
  const title = `[${input.pageTitle}] ${incident.title}: ${status}`;
  const end = footer(input.pageUrl, input.manageUrl);
  const text = [
    `${incident.title} — ${status} (${update.at.slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    update.body,
    '',
    ...end.text,
  ].join('\n');
  const html = document(
    `${incident.title}: ${status}`,
    `<p>${escapeHtml(input.pageTitle)} · <time datetime="${escapeHtml(update.at)}">${escapeHtml(update.at.slice(0, 16).replace('T', ' '))} UTC</time></p>` +
      renderMarkdown(update.body) +
      end.html,
  );
  return { subject: headerText(title), text, html, headers: unsubscribeHeaders(input.manageUrl) };
}
