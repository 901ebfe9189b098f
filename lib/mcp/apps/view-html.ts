import { escapeHtml, renderLightDocument, STATE_WORDS, time } from '../../status-pages/status-pages.ts';
import type { ViewEntity } from './ui.ts';

/**
 * The views' HTML (lib/mcp/apps): the public pages' document and stylesheet with rows of entities,
 * every text escaped, no script, no link, no form. A dependency graph is not drawn: a blast radius
 * is lists by distance.
 */

/** One entity's row: its name and address, and its state in the pages' words. */
function entityRowHtml(entity: ViewEntity): string {
  const state = entity.in_maintenance
    ? '<span class="state t-maintenance">Under maintenance</span>'
    : `<span class="state t-${entity.state}">${STATE_WORDS[entity.state]}</span>`;
  return [
    '<li class="entity"><div class="row">',
    `<span>${escapeHtml(entity.name)} <span class="meta">${escapeHtml(entity.blueprint_slug)}/${escapeHtml(entity.slug)}</span></span>`,
    `${state}</div></li>`,
  ].join('');
}

/** A list of rows, or a sentence when there are none. */
export function entityListHtml(entities: readonly ViewEntity[], none: string): string {
  return entities.length > 0
    ? `<ul>${entities.map(entityRowHtml).join('')}</ul>`
    : `<p>${escapeHtml(none)}</p>`;
}

/** The banner: `state` picks its colour, `text` is escaped. */
export const bannerHtml = (state: ViewEntity['state'], text: string) =>
  `<div class="banner s-${state}" role="status">${escapeHtml(text)}</div>`;

/** A whole view: heading, body and the time it was made. */
export function viewDocument(title: string, body: string, generatedAt: string): string {
  return renderLightDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>${body}<footer>Updated ${time(generatedAt)}. Vigil.</footer>`,
  );
}

/** A row in words, for the text answer: `DB (service/db): down`. */
export const entityLine = (e: ViewEntity) =>
  `- ${e.name} (${e.blueprint_slug}/${e.slug}): ${e.in_maintenance ? `${e.state}, under maintenance` : e.state}`;
