import { smallPage } from '../http/small-page.ts';
import type { AckLinkView } from './ack-link-service.ts';
import { ACK_LINK_TTL_MS } from './mint.ts';

/**
 * The pages an acknowledgement link opens: plain HTML, no script, one form posting back to the
 * link's own URL. Only whoever holds the link sees the incident it names.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const HOURS = ACK_LINK_TTL_MS / 3_600_000;

/** A time as the pages show it: ISO UTC to the second. */
const utc = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/** The incident's entity, its state and since when, and who acknowledged it. */
function facts(view: AckLinkView): string {
  const { incident } = view;
  const lines = [
    `<p><strong>${escapeHtml(incident.entity_name)}</strong>: incident ${escapeHtml(incident.state)} since ${utc(incident.opened_at)}.</p>`,
  ];
  if (incident.acknowledged_at)
    lines.push(
      `<p>Acknowledged by <strong>${escapeHtml(view.acknowledgedBy ?? '')}</strong> at ${utc(incident.acknowledged_at)}.</p>`,
    );
  if (incident.resolved_at) lines.push(`<p>Resolved at ${utc(incident.resolved_at)}.</p>`);
  return lines.join('');
}

/** The link's page: what it names, and the Acknowledge button while the incident is open. */
export function ackFormPage(view: AckLinkView): string {
  const open = view.incident.state === 'open';
  return smallPage(
    `Incident: ${escapeHtml(view.incident.entity_name)}`,
    facts(view) +
      (open
        ? `<form method="post"><button type="submit" style="font-size:1em;padding:.5em 1.5em">Acknowledge as ${escapeHtml(view.person)}</button></form>` +
          `<p>Acknowledging stops the repeats and the escalation of this incident. The link works once, for ${HOURS} hours.</p>`
        : '<p>Nothing is left to acknowledge.</p>'),
  );
}

/** After the button. */
export function ackDonePage(view: AckLinkView): string {
  return smallPage(`Acknowledged: ${escapeHtml(view.incident.entity_name)}`, facts(view));
}

/** A link used already: when, and who acknowledged the incident. */
export function ackUsedPage(view: AckLinkView, usedAt: string): string {
  return smallPage(
    'This link was used',
    `<p>This acknowledgement link was used at ${utc(usedAt)}; it works once.</p>${facts(view)}`,
  );
}

/** An unknown or expired link (or one whose person or incident is gone): one page for all. */
export function ackInvalidPage(): string {
  return smallPage(
    'This link is not valid',
    `<p>The acknowledgement link is unknown or expired (links work for ${HOURS} hours). Acknowledge the incident in the console instead.</p>`,
  );
}
