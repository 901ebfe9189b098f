import {
  IMPACT_LEVELS,
  PAGE_INCIDENT_LIMITS,
  type PageIncidentRecord,
} from '../items/page-incident-items.ts';

/**
 * The words of a drafted notice, in the page's own terms: only the names of the page's own
 * components (the entities it shows that the root is or holds), never the root's when the page
 * does not show it, so a page leaks no name of the catalog.
 *
 * Impact from a component's state: down → major_outage, degraded → degraded_performance (a
 * state Vigil measures says nothing of "partial": partial_outage is left to the person editing).
 */

export type Impact = PageIncidentRecord['impact'];
type Level = Impact[number]['level'];

const LEVEL_OF_STATE: Readonly<Record<string, Level>> = {
  down: 'major_outage',
  degraded: 'degraded_performance',
};

/** The impact level a component's state means, or undefined for up and unknown (not affected). */
export const impactOfState = (state: string): Level | undefined => LEVEL_OF_STATE[state];

const LEVEL_WORDS: Readonly<Record<Level, string>> = {
  degraded_performance: 'degraded performance',
  partial_outage: 'partial outage',
  major_outage: 'major outage',
};

const rank = (level: Level) => IMPACT_LEVELS.indexOf(level);

/**
 * `current` widened by `seen`: every component of either, the higher level of the two, in the
 * page's order (`order`); never narrower than `current`.
 */
export function widenedImpact(current: Impact, seen: Impact, order: readonly string[]): Impact {
  const levels = new Map(current.map((i) => [i.entity_id, i.level]));
  for (const { entity_id, level } of seen) {
    const was = levels.get(entity_id);
    if (was === undefined || rank(level) > rank(was)) levels.set(entity_id, level);
  }
  const position = (id: string) => {
    const at = order.indexOf(id);
    return at === -1 ? order.length : at;
  };
  return [...levels]
    .map(([entity_id, level]) => ({ entity_id, level }))
    .sort((a, b) => position(a.entity_id) - position(b.entity_id));
}

/** True when both name the same components at the same levels in the same order. */
export const sameImpact = (a: Impact, b: Impact) =>
  a.length === b.length && a.every((i, n) => i.entity_id === b[n]?.entity_id && i.level === b[n]?.level);

/** Markdown's special characters escaped, so a component's name reads as written. */
const markdownText = (text: string) => text.replace(/[\\`*_[\]()#+\-.!<>|~]/g, '\\$&');

/** "A", "A and B", "A, B and C". */
function listed(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The names, shortened to "A, B and 3 more" until `max` characters hold the text `wrap` makes of them. */
function fitted(names: string[], max: number, wrap: (list: string) => string): string {
  for (let shown = names.length; shown >= 1; shown -= 1) {
    const rest = names.length - shown;
    const list = rest === 0 ? listed(names) : `${names.slice(0, shown).join(', ')} and ${rest} more`;
    const text = wrap(list);
    if (text.length <= max) return text;
  }
  return wrap(`${names.length} components`).slice(0, max);
}

/** The draft's title: the components affected, by their names on the page. */
export function draftTitle(names: string[]): string {
  return fitted(names, PAGE_INCIDENT_LIMITS.title, (list) => `Investigating problems with ${list}`);
}

/** The first update's Markdown: each component with its impact. */
export function draftBody(impact: Impact, nameOf: (entityId: string) => string): string {
  const parts = impact.map((i) => `${markdownText(nameOf(i.entity_id))} (${LEVEL_WORDS[i.level]})`);
  return fitted(
    parts,
    PAGE_INCIDENT_LIMITS.body,
    (list) => `We are investigating problems affecting ${list}. We will post an update here soon.`,
  );
}

/** The all-clear's resolved update. */
export function resolvedBody(names: string[]): string {
  return fitted(
    names.map(markdownText),
    PAGE_INCIDENT_LIMITS.body,
    (list) => `The problems affecting ${list} are resolved. Everything is working normally again.`,
  );
}
