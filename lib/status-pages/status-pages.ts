/**
 * The face of the status pages for other features: the page list (search, the notifier's hold
 * on pages), the slug rules (importers) and the page's schema and bounds (configuration as code).
 */
export { pageCreateBody, RESERVED_SLUGS } from './pages/request-schemas.ts';
export type { PublicStatusPageRecord } from './pages/responses.ts';
export { listStatusPages, PAGE_LIMITS } from './pages/status-page-items.ts';
/** The face of the public pages' renderer for the MCP status app (lib/mcp/apps): its document, words and escaping. */
export { escapeHtml, time } from './public/html-text.ts';
export { renderLightDocument, STATE_WORDS } from './public/render-html.ts';
