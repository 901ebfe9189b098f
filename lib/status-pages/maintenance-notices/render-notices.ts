import { escapeHtml, time } from '../html/html-text.ts';
import { renderMarkdown } from '../html/markdown.ts';
import type { PublicNotice } from './public-notices.ts';

/**
 * The maintenance notices in the public page's HTML, one section under the current incidents,
 * in the written incidents' boxes (their stylesheet): the window's name, what it is now, its run's
 * times in UTC (`<time datetime>`), the page's entities it covers and its note (the Markdown subset).
 */

const STATUS_WORDS: Record<PublicNotice['status'], string> = {
  scheduled: 'Scheduled maintenance',
  in_progress: 'In progress',
  completed: 'Completed',
};

function notice(n: PublicNotice): string {
  return [
    `<li class="inc"><h3>${escapeHtml(n.name)}</h3>`,
    `<p class="meta"><span class="st">${STATUS_WORDS[n.status]}</span>, ${time(n.starts_at)} to ${time(n.ends_at)}</p>`,
    `<p class="meta">Affects ${n.components.map(escapeHtml).join(', ')}</p>`,
    n.public_note === null ? '' : renderMarkdown(n.public_note),
    '</li>',
  ].join('');
}

/** The page's maintenance section (nothing when no window is announced for it now). */
export function maintenanceNoticesHtml(notices: PublicNotice[]): string {
  return notices.length > 0 ? `<h2>Maintenance</h2><ul>${notices.map(notice).join('')}</ul>` : '';
}
