/**
 * The face of the status pages for other features: the page list (search, the notifier's hold
 * on pages), the slug rules (importers) and the page's schema and bounds (configuration as code).
 */
export { pageCreateBody, RESERVED_SLUGS } from './pages/request-schemas.ts';
export type { PublicStatusPageRecord } from './pages/responses.ts';
export { listStatusPages, PAGE_LIMITS } from './pages/status-page-items.ts';
