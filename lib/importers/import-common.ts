import type { DocKey } from '../config-doc/kind.ts';

/**
 * What the importers share: the document's frame, slugs and `${ENV}` references, the references
 * to shared channels a check's policy holds, and Go's duration syntax (Gatus) read as seconds.
 */

/**
 * A document with the lists as given, empty lists left out, so two conversions of the same source
 * print the same YAML. An importer gives its lists in the document's order, the one the kinds
 * declare (documentOrder, lib/config-doc/kind.ts): test/importers/document-order.test.ts holds
 * every importer's output to the configuration engine's order.
 */
export function configDocument(lists: Partial<Record<DocKey, unknown[]>>): Record<string, unknown> {
  const document: Record<string, unknown> = { apiVersion: 'vigil/v1', kind: 'Config' };
  for (const [key, list] of Object.entries(lists)) {
    if (list && list.length > 0) document[key] = list;
  }
  return document;
}

/** A slug (lib/domain/formats/slug.ts: a-z, 0-9, hyphens, at most 63) made from a name; `fallback` when nothing is left. */
function slugify(text: string, fallback: string): string {
  const slug = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** Hands out slugs unique among those already given: `api`, `api-2`, `api-3`. */
export function slugAllocator() {
  const taken = new Set<string>();
  return (text: string, fallback: string): string => {
    const base = slugify(text, fallback);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 60 - String(n).length)}-${n}`;
    taken.add(slug);
    return slug;
  };
}

/** An environment variable's name made of parts: `GATUS_SLACK_WEBHOOK_URL`. */
export function envName(...parts: string[]): string {
  return parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);
}

/** `${NAME}`: how a document holds a secret (the engine reads it from the environment at plan and apply). */
export const envRef = (name: string) => `\${${name}}`;

const WHOLE_ENV_REF = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/** The variable a value names when it is only a reference (`${SLACK_URL}` or `$SLACK_URL`); undefined otherwise. */
export function referencedEnv(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = WHOLE_ENV_REF.exec(value.trim());
  return match ? match[1] : undefined;
}

/** A reference from a check's policy to a shared channel of the document, by its name (DECISIONS). */
export const channelReference = (name: string) => ({ channel: name });

const GO_DURATION_UNIT: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;

/** Seconds of a Go duration (`1h30m`, `500ms`, `90s`), or undefined when it is not one. */
export function goDurationSeconds(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value === 0 ? 0 : undefined;
  if (typeof value !== 'string' || value.length > 64 || !GO_DURATION.test(value.trim())) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.trim().matchAll(GO_DURATION_PART)) {
    seconds += Number(amount) * (GO_DURATION_UNIT[unit ?? 's'] ?? 1);
  }
  return seconds;
}

/** A plain object (a YAML mapping, a JSON object), or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
