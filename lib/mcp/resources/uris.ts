import type { ResourceTemplateType } from '@modelcontextprotocol/server';
import { SLUG } from '../../domain/formats.ts';

/**
 * Vigil's MCP resource addresses (DECISIONS.md "MCP (wave 5)"): `vigil://entities/{blueprint}/{slug}`,
 * `vigil://checks/{id}`, `vigil://incidents/{id}`, `vigil://status-pages/{slug}`. A URI names no
 * tenant: it is read in the caller's, so another tenant's resource is simply not found.
 */

export type ResourceAddress =
  | { kind: 'entity'; blueprint: string; slug: string }
  | { kind: 'check'; id: string }
  | { kind: 'incident'; id: string }
  | { kind: 'status_page'; slug: string };

/** Longer than any address this server makes: a longer URI is refused before it is parsed. */
const MAX_URI_LENGTH = 256;

const ULID = '[0-9A-HJKMNP-TV-Z]{26}';
const SLUG_PART = SLUG.source.slice(1, -1);
const PATTERNS: ReadonlyArray<[RegExp, (m: RegExpExecArray) => ResourceAddress]> = [
  [
    new RegExp(`^vigil://entities/(${SLUG_PART})/(${SLUG_PART})$`),
    (m) => ({ kind: 'entity', blueprint: m[1] ?? '', slug: m[2] ?? '' }),
  ],
  [new RegExp(`^vigil://checks/(chk_${ULID})$`), (m) => ({ kind: 'check', id: m[1] ?? '' })],
  [new RegExp(`^vigil://incidents/(inc_${ULID})$`), (m) => ({ kind: 'incident', id: m[1] ?? '' })],
  [new RegExp(`^vigil://status-pages/(${SLUG_PART})$`), (m) => ({ kind: 'status_page', slug: m[1] ?? '' })],
];

/** The address a URI names, or undefined when it is not one of Vigil's. */
export function parseResourceUri(uri: string): ResourceAddress | undefined {
  if (uri.length > MAX_URI_LENGTH) return undefined;
  for (const [pattern, address] of PATTERNS) {
    const match = pattern.exec(uri);
    if (match) return address(match);
  }
  return undefined;
}

/** The URI of an address. */
export function resourceUri(address: ResourceAddress): string {
  switch (address.kind) {
    case 'entity':
      return `vigil://entities/${address.blueprint}/${address.slug}`;
    case 'check':
      return `vigil://checks/${address.id}`;
    case 'incident':
      return `vigil://incidents/${address.id}`;
    case 'status_page':
      return `vigil://status-pages/${address.slug}`;
  }
}

/** What every resource reads as: the JSON the REST API answers for the same thing. */
export const RESOURCE_MIME_TYPE = 'application/json';

/** resources/templates/list: one template per kind, the same for every caller. */
export const RESOURCE_TEMPLATES: ResourceTemplateType[] = [
  {
    uriTemplate: 'vigil://entities/{blueprint}/{slug}',
    name: 'entity',
    title: 'Catalog entity',
    description:
      "An entity of the catalog by its blueprint's slug and its own: its state, properties and checks",
    mimeType: RESOURCE_MIME_TYPE,
  },
  {
    uriTemplate: 'vigil://checks/{id}',
    name: 'check',
    title: 'Check',
    description: 'A check (chk_…) with its most recent results, newest first',
    mimeType: RESOURCE_MIME_TYPE,
  },
  {
    uriTemplate: 'vigil://incidents/{id}',
    name: 'incident',
    title: 'Incident',
    description: 'An incident (inc_…) with its timeline',
    mimeType: RESOURCE_MIME_TYPE,
  },
  {
    uriTemplate: 'vigil://status-pages/{slug}',
    name: 'status-page',
    title: 'Status page',
    description: 'A public status page as its owner sees it: title, access and the entities it shows',
    mimeType: RESOURCE_MIME_TYPE,
  },
];

/** Whether changes of this kind are told on `subscriptions/listen` (entity transitions reach these two). */
export function isSubscribable(address: ResourceAddress): boolean {
  return address.kind === 'entity' || address.kind === 'incident';
}
