import {
  type CacheHint,
  ProtocolError,
  ProtocolErrorCode,
  type Resource,
  ResourceNotFoundError,
  type Server,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { Principal } from '../../domain/principal.ts';
import { AppError, NotFoundError } from '../../platform/errors.ts';
import type { AppResources } from '../ports.ts';
import { LIST_SECTIONS, listSection, type ResourceDeps, readResource } from './reader.ts';
import { parseResourceUri, RESOURCE_MIME_TYPE, RESOURCE_TEMPLATES } from './uris.ts';

/** resources/list pages: as tools/list's. */
const RESOURCES_PAGE_SIZE = 50;

/**
 * Cache hints (2026-07-28, `ttlMs`/`cacheScope`) of the resource methods; the SDK adds them to
 * 2026-07-28 answers only. Templates are the same for everyone; lists and reads are the caller's
 * tenant's and change with its state, which `subscriptions/listen` tells sooner.
 */
export const RESOURCE_CACHE_HINTS = {
  'resources/templates/list': { ttlMs: 3_600_000, cacheScope: 'public' },
  'resources/list': { ttlMs: 30_000, cacheScope: 'private' },
  'resources/read': { ttlMs: 10_000, cacheScope: 'private' },
} as const satisfies Record<string, CacheHint>;

/** A resources/list cursor: the section it is in and that section's own (sealed) cursor, bounded. */
const listCursor = z
  .string()
  .max(2048)
  .regex(/^(entities|checks|incidents|status-pages):[A-Za-z0-9_.~+/=-]*$/);

function cursorOf(cursor: string | undefined) {
  if (cursor === undefined) return { section: 0, inner: undefined };
  const parsed = listCursor.safeParse(cursor);
  if (!parsed.success) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor');
  const colon = parsed.data.indexOf(':');
  const name = parsed.data.slice(0, colon);
  const inner = parsed.data.slice(colon + 1);
  return { section: LIST_SECTIONS.findIndex((s) => s === name), inner: inner === '' ? undefined : inner };
}

/** A service's refusal as MCP says it: not found is the spec's -32602 with the URI; a bad argument -32602. */
function asProtocolError(err: unknown, uri?: string): unknown {
  if (err instanceof NotFoundError && uri !== undefined) return new ResourceNotFoundError(uri);
  if (err instanceof AppError && err.expose)
    return new ProtocolError(ProtocolErrorCode.InvalidParams, err.message);
  return err;
}

/**
 * Serves Vigil's resources on a server made for one caller: templates, a paged list (the app views
 * of lib/mcp/apps first, then entities, checks, incidents, status pages) and reads (`ui://` of the
 * app views, `vigil://` of the rest), all in the caller's tenant. `subscribe` declares
 * `resources.subscribe`, which `subscriptions/listen` (2026-07-28) honours.
 */
export function registerResources(
  server: Server,
  deps: ResourceDeps,
  caller: Principal,
  options: { subscribe: boolean; apps: AppResources },
): void {
  const { apps } = options;
  server.registerCapabilities({ resources: { subscribe: options.subscribe, listChanged: false } });
  server.setRequestHandler('resources/templates/list', async () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler('resources/list', async (request) => {
    let { section, inner } = cursorOf(request.params?.cursor);
    // The app views (a few, the caller's tools decide) lead the first page.
    const resources: Resource[] = request.params?.cursor === undefined ? await apps.list(caller) : [];
    try {
      while (section < LIST_SECTIONS.length && resources.length < RESOURCES_PAGE_SIZE) {
        const name = LIST_SECTIONS[section] ?? 'status-pages';
        const page = await listSection(deps, caller, name, {
          limit: RESOURCES_PAGE_SIZE - resources.length,
          cursor: inner,
        });
        resources.push(...page.resources);
        if (page.next !== null) return { resources, nextCursor: `${name}:${page.next}` };
        section += 1;
        inner = undefined;
      }
    } catch (err) {
      throw asProtocolError(err);
    }
    const next = LIST_SECTIONS[section];
    return { resources, ...(next === undefined ? {} : { nextCursor: `${next}:` }) };
  });
  server.setRequestHandler('resources/read', async (request) => {
    const uri = request.params.uri;
    if (uri.startsWith('ui://')) {
      // A view of a tool the caller does not have, or of another tenant's entity, is not found.
      const view = await apps.read(caller, uri);
      if (!view) throw new ResourceNotFoundError(uri.slice(0, 256));
      return view;
    }
    const address = parseResourceUri(uri);
    if (address === undefined) throw new ResourceNotFoundError(uri.slice(0, 256));
    try {
      const value = await readResource(deps, caller, address);
      return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: JSON.stringify(value) }] };
    } catch (err) {
      throw asProtocolError(err, uri);
    }
  });
}
