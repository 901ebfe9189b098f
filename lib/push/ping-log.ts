/**
 * lib/push's ping log as the rest of the code base reads it (MCP's get_ping_log and
 * list_heartbeats): the service of log/ping-log-service.ts, where the log's routes find it too.
 */
export { createPingLogService, type PingLogService } from './log/ping-log-service.ts';
