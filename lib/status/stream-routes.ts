import * as z from 'zod';
import { defineRoute } from '../http/define-route.ts';
import { idSchema } from '../http/route-schemas.ts';
import { SSE_HEADERS } from '../http/router.ts';
import type { AuthedRoute } from '../http/types.ts';
import type { StatusStreamService } from './stream-service.ts';

const streamHeaders = z.object({
  'last-event-id': idSchema('trn')
    .optional()
    .meta({ description: 'Resume after this event (the `id:` of the last event received)' }),
  'x-vigil-stream-client': z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .optional()
    .meta({
      description:
        "The client's own name for its stream (16 to 64 letters, digits, `-` or `_`; the console " +
        'sends one per browser): a new stream with the same key and name replaces the one before ' +
        'it, which ends, so a client that left a stream without the server hearing of it (a ' +
        'reload, a dropped connection) does not hold two of its open-stream slots',
    }),
});

const eventStream = z.string().meta({
  description:
    'Server-Sent Events: `event: state_change` frames whose `data` is the state-change event ' +
    '{entity_id, entity_name, check_id, tenant_id, from_state, to_state, transition_id, timestamp} ' +
    'and whose `id` is the transition id; a `: keep-alive` comment every 15 s. A resume replays at ' +
    'most the newest 1,000 transitions after Last-Event-ID and none older than 24 h; when that ' +
    'leaves some out, an `event: reset` frame comes first, data {reason, resume_from}: reload the ' +
    'current state (GET /v1/status), then apply the events that follow',
});

/** GET /v1/status/stream (readable by read-only keys, like every GET). */
export function statusStreamRoutes(deps: { statusStream: StatusStreamService }): AuthedRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/status/stream',
      auth: 'key',
      operationId: 'streamStatus',
      tag: 'Status',
      summary:
        "Server-Sent Events of the tenant's entity state changes, resumable with Last-Event-ID; " +
        'open streams are capped per API key and per account (429 RATE_LIMITED with Retry-After past the cap)',
      schemas: {
        headers: streamHeaders,
        responses: { 200: { contentType: 'text/event-stream', schema: eventStream } },
      },
      handler: async ({ principal, headers }) => {
        const { tenantId, keyId } = principal;
        const client = headers['x-vigil-stream-client'];
        return new Response(
          await deps.statusStream.open({ tenantId, keyId, client }, headers['last-event-id']),
          {
            status: 200,
            headers: SSE_HEADERS,
          },
        );
      },
    }),
  ];
}
