/**
 * lib/push's runs as the rest of the code base reads them (MCP's get_check_runs): the service of
 * runs/run-log.ts, where GET /v1/checks/{id}/runs and /normal find it too.
 */
export { createRunLogService, type RunLogService } from './runs/run-log.ts';
