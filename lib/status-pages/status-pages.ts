/**
 * The face of the status pages for other features: the page list (search, the notifier's hold
 * on pages), the slug rules (importers) and the page's schema and bounds (configuration as code).
 */

/** The face of the public pages' renderer for the MCP status app (lib/mcp/apps): its document, words and escaping. */
export { escapeHtml, time } from './html/html-text.ts';
export { pageCreateBody, RESERVED_SLUGS } from './items/request-schemas.ts';
export { listStatusPages, PAGE_LIMITS } from './items/status-page-items.ts';
export type { PublicStatusPageRecord } from './pages/responses.ts';
export { renderLightDocument, STATE_WORDS } from './public/render-html.ts';
