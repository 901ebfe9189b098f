import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { SLUG } from '../../domain/formats.ts';
import type { Principal } from '../../domain/principal.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { AppResources, ToolCatalog } from '../ports.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { blastRadiusHtml, problemRadiiHtml, readBlastRadius, readProblemRadii } from './blast-radius-view.ts';
import { showBlastRadius, showStatus } from './show-tools.ts';
import { readStatusView, statusViewHtml } from './status-view.ts';
import { APP_MIME_TYPE, UI_URIS, VIEW_META } from './ui.ts';

/** The views, each with the app tool that declares it: a caller reads a view only when it has its tool. */
const VIEWS: readonly (Resource & { tool: string })[] = [
  {
    uri: UI_URIS.status,
    name: 'status',
    title: 'Status board',
    description: 'The status board: counts, and entities problems first (show_status).',
    mimeType: APP_MIME_TYPE,
    tool: showStatus.name,
  },
  {
    uri: UI_URIS.blastRadius,
    name: 'blast-radius',
    title: 'Blast radius',
    description:
      'What depends on each entity down or degraded now; ui://vigil/blast-radius/{blueprint}/{slug} is one entity’s (show_blast_radius).',
    mimeType: APP_MIME_TYPE,
    tool: showBlastRadius.name,
  },
];

const ENTITY_VIEW = new RegExp(
  `^${UI_URIS.blastRadius}/(${SLUG.source.slice(1, -1)})/(${SLUG.source.slice(1, -1)})$`,
);

const html = (uri: string, text: string): ReadResourceResult => ({
  contents: [{ uri, mimeType: APP_MIME_TYPE, text, _meta: VIEW_META }],
});

/** The app views of a caller (AppResources in ports.ts), read through the same services as the tools. */
export function createAppResources(deps: {
  tools: Pick<ToolCatalog, 'list'>;
  builtins: Pick<BuiltinDeps, 'status' | 'relations' | 'entities' | 'clock'>;
}): AppResources {
  const { builtins } = deps;
  const viewsOf = async (caller: Principal) => {
    const names = new Set((await deps.tools.list(caller)).map((tool) => tool.name));
    return VIEWS.filter((view) => names.has(view.tool));
  };
  const now = () => new Date(builtins.clock.now()).toISOString();

  async function readEntityView(caller: Principal, uri: string, blueprintSlug: string, slug: string) {
    try {
      const e = await builtins.entities.get(caller.tenantId, blueprintSlug, slug);
      const { id, name, blueprint_slug, state } = e;
      const radius = await readBlastRadius(builtins, caller, {
        id,
        name,
        blueprint_slug,
        slug: e.slug,
        state,
      });
      return html(uri, blastRadiusHtml(radius, now()));
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  return {
    async list(caller) {
      return (await viewsOf(caller)).map(({ tool: _tool, ...resource }) => ({
        ...resource,
        _meta: VIEW_META,
      }));
    },
    async read(caller, uri) {
      const views = new Set((await viewsOf(caller)).map((view) => view.uri));
      if (uri === UI_URIS.status && views.has(uri))
        return html(uri, statusViewHtml(await readStatusView(builtins, caller)));
      if (!views.has(UI_URIS.blastRadius)) return undefined;
      if (uri === UI_URIS.blastRadius)
        return html(uri, problemRadiiHtml(await readProblemRadii(builtins, caller), now()));
      const match = ENTITY_VIEW.exec(uri);
      return match?.[1] && match[2] ? readEntityView(caller, uri, match[1], match[2]) : undefined;
    },
  };
}
