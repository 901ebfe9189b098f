/**
 * What configuration as code (lib/config-doc) takes of integrations: the request body's schema
 * with the document's token field, and the token's own form. The rest stays behind the routes.
 */

export type { IntegrationBody } from './manage/integration-schemas.ts';
export { ingestTokenSchema, integrationBodyWithToken } from './manage/integration-schemas.ts';
