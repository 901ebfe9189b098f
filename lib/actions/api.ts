/**
 * What other folders take of the actions' API (its front door; api/ and runs/ are private): the
 * request body and public response schemas (configuration as code, MCP), the run variables'
 * limits and a template variable's name (MCP's run tool).
 */

export { createActionBody } from './api/request-schemas.ts';
export type { publicActionSchema } from './api/responses.ts';
export { publicExecution, publicLogLine } from './api/responses.ts';
export { RUN_VARS_LIMITS } from './api/run-routes.ts';
export { TEMPLATE_VAR_NAME } from './runs/template.ts';
