import { type AlertMessage, clip, type DigestMessage, plainText } from './message.ts';
import type { EmailContent } from './ports.ts';

/**
 * An alert as an email: a one-line subject, a plain-text body and an HTML body saying the same
 * (entity, check, target, from → to, last error, time, console link). Names and errors come from
 * users and probed targets: the subject loses every control character (CR and LF included, so it
 * can never end its header, whatever the mail library does), the HTML escapes everything it shows.
 */

export type { EmailContent } from './ports.ts';

/** Long enough for an entity name and a state; mail clients cut subjects shorter anyway. */
const MAX_SUBJECT = 200;

/** C0 and C1 controls (Cc: CR, LF, tab, NUL...), format characters (Cf) and line and paragraph separators. */
const CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/** One header-safe line: control characters (CR, LF, tab, NUL, C1, line separators) become a space. */
export function headerLine(text: string, max = MAX_SUBJECT): string {
  return clip(text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim(), max);
}

/** Text shown in HTML: `& < > " '` as entities, so a name such as `<script>` is text, never markup. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const COLOUR: Record<AlertMessage['tone'], string> = {
  down: '#d1242f',
  degraded: '#d4a72c',
  up: '#1a7f37',
  other: '#6e7781',
};

function htmlBody(message: AlertMessage): string {
  const rows = message.facts
    .map(
      (f) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(f.label)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(f.value)}</td></tr>`,
    )
    .join('\n');
  const note = message.note ? `<p style="color:#57606a">${escapeHtml(message.note)}</p>\n` : '';
  const link = message.link ? `<p><a href="${escapeHtml(message.link)}">Open in Vigil</a></p>\n` : '';
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px">',
    `<h2 style="border-left:6px solid ${COLOUR[message.tone]};padding-left:8px">${escapeHtml(message.title)}</h2>`,
    `${note}<table>\n${rows}\n</table>`,
    `${link}</body></html>`,
  ].join('\n');
}

/** The email of an alert's message (as lib/notify wrote it, the channel's template applied). */
export function emailContent(message: AlertMessage): EmailContent {
  return {
    subject: headerLine(`[Vigil] ${message.title}`),
    text: `${plainText(message, true)}\n`,
    html: htmlBody(message),
  };
}

/** A digest part as an email: the subject, and every line in text and HTML (a part holds at most 1,000 events). */
export function digestEmailContent(message: DigestMessage): EmailContent {
  const text = [message.title, '', ...message.summary, '', ...message.lines].join('\n');
  const list = message.lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('\n');
  const summary = message.summary.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
  const html = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px">',
    `<h2>${escapeHtml(message.title)}</h2>`,
    summary,
    `<ul>\n${list}\n</ul>`,
    '</body></html>',
  ].join('\n');
  return { subject: headerLine(`[Vigil] ${message.title}`), text: `${text}\n`, html };
}
