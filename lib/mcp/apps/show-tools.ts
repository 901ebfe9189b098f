import type { CallToolResult } from '@modelcontextprotocol/server';
import type { BuiltinTool } from '../tool-kit/deps.ts';
import { READS } from '../tool-kit/deps.ts';
import { load } from '../tool-kit/graph.ts';
import { asToolResult, toolResult } from '../tool-kit/result.ts';
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
export const showStatus: BuiltinTool = {
  name: 'show_status',
  annotations: { title: 'Show status board', ...READS },
  meta: uiMeta(UI_URIS.status),
  handler: (deps, caller) =>
    asToolResult(async () => {
      const view = await readStatusView(deps, caller);
      return appResult(statusViewText(view), UI_URIS.status, statusViewHtml(view), { ...view });
    }),
};

/** show_blast_radius: what depends on an entity, as a view (ui://vigil/blast-radius/{blueprint}/{slug}). */
export const showBlastRadius: BuiltinTool = {
  name: 'show_blast_radius',
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
