import type { Logger } from '../../platform/logger.ts';
import type { RouteReply, WriteEvent, WriteSink } from '../types.ts';

export const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD';

/**
 * Hands a write that succeeded to the audit log (the router's and the in-process invoker's one
 * rule): writes below 400, and a GET only when it says it wrote (an SSO callback creating a member
 * and a session). A failing log is logged, never the request's failure.
 */
export function createWriteAudit(audit: WriteSink | undefined, logger: Logger) {
  return async (reply: RouteReply, event: Omit<WriteEvent, 'status' | 'replyBody' | 'note'>) => {
    const json = reply instanceof Response ? undefined : reply;
    if (!audit || (!isWrite(event.route.method) && json?.audit === undefined)) return;
    const status = json?.status ?? (reply as Response).status;
    if (status >= 400 || json?.audit?.skip) return;
    try {
      await audit({
        ...event,
        status,
        replyBody: json?.body,
        ...(json?.audit ? { note: json.audit } : {}),
      });
    } catch (err) {
      logger.error('audit entry not written', { request_id: event.req.requestId, err });
    }
  };
}
