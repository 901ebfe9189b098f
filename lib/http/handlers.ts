/**
 * Route handlers other folders build on (the front door of handlers/): a tenant's create, read,
 * update and delete answers, and the routes of a keyless link's page.
 */

export type { LinkAnswer } from './handlers/link-page-routes.ts';
export { linkPageRoutes } from './handlers/link-page-routes.ts';
export { answerCreated, answerOk, createRoute, deleteRoute, readRoute } from './handlers/tenant-handlers.ts';
