import type { CallToolResult } from '@modelcontextprotocol/server';
import { entityRefInput } from '../../catalog/entities.ts';
import type { BuiltinTool } from '../../platform/mcp-tool.ts';
import { noInput, READS } from '../../platform/mcp-tool.ts';
import { asToolResult, toolResult } from '../../platform/tool-answers.ts';
import { load } from '../../status/board-reads.ts';
import type { BuiltinDeps } from '../tool-kit/deps.ts';
import { blastRadiusHtml, radiusText, readBlastRadius } from './blast-radius-view.ts';
import { readStatusView, statusViewHtml, statusViewText } from './status-view.ts';
import { APP_MIME_TYPE, UI_URIS, uiMeta, VIEW_META } from './ui.ts';

/**
 * The app tools (MCP Apps): each declares its view in `_meta.ui.resourceUri` and answers with the
 * text a host without the extension shows first, then the view itself as an embedded `ui://`
 * resource (the HTML of this call), and the data as structuredContent.
 */

/** A view's URI for one entity's blast radius. */
const blastRadiusUri = (blueprintSlug: string, slug: string) =>
  `${UI_URIS.blastRadius}/${blueprintSlug}/${slug}`;

/** A tool result (toolResult's text, summary then the data) with the view embedded after it. */
function appResult(text: string, uri: string, html: string, data: Record<string, unknown>): CallToolResult {
  const result = toolResult(text, data, { compact: true });
  return {
    ...result,
    content: [
      ...result.content,
      { type: 'resource', resource: { uri, mimeType: APP_MIME_TYPE, text: html, _meta: VIEW_META } },
    ],
  };
}

/** show_status: the status board as a view (ui://vigil/status), problems first. */
export const showStatus: BuiltinTool<BuiltinDeps> = {
  name: 'show_status',
  offer: {
    toolset: 'catalog-ops',
    order: 120,
    version: '2.2.0',
    description:
      'The status board as a view (MCP Apps, ui://vigil/status): counts and entities, problems first; hosts without MCP Apps get the same as text.',
    inputSchema: noInput,
  },
  annotations: { title: 'Show status board', ...READS },
  meta: uiMeta(UI_URIS.status),
  handler: (deps, caller) =>
    asToolResult(async () => {
      const view = await readStatusView(deps, caller);
      return appResult(statusViewText(view), UI_URIS.status, statusViewHtml(view), { ...view });
    }),
};

/** show_blast_radius: what depends on an entity, as a view (ui://vigil/blast-radius/{blueprint}/{slug}). */
export const showBlastRadius: BuiltinTool<BuiltinDeps> = {
  name: 'show_blast_radius',
  offer: {
    toolset: 'catalog-ops',
    order: 130,
    version: '2.2.0',
    description:
      'What depends on an entity, directly or transitively, as a view (MCP Apps, ui://vigil/blast-radius): lists by distance with states; hosts without MCP Apps get the same as text.',
    inputSchema: entityRefInput,
  },
  annotations: { title: 'Show blast radius', ...READS },
  meta: uiMeta(UI_URIS.blastRadius),
  handler: (deps, caller, args) =>
    asToolResult(async () => {
      const { id, name, blueprint_slug, slug, state } = await load(deps, caller.tenantId, args);
      const entity = { id, name, blueprint_slug, slug, state };
      const radius = await readBlastRadius(deps, caller, entity);
      const generatedAt = new Date(deps.clock.now()).toISOString();
      return appResult(
        radiusText(radius),
        blastRadiusUri(entity.blueprint_slug, entity.slug),
        blastRadiusHtml(radius, generatedAt),
        { entity, dependents: radius.dependents, truncated: radius.truncated },
      );
    }),
};
