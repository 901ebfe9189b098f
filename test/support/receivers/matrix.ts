import * as z from 'zod';
import type { KeyPair } from '../tls-fixtures.ts';
import { json, type ProviderReceiver, parsedBody, startProviderReceiver } from './base.ts';

/**
 * A Matrix homeserver's `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`: no
 * Bearer token gets 401 M_MISSING_TOKEN, an unknown one 401 M_UNKNOWN_TOKEN, a room the account
 * is not in 403 M_FORBIDDEN, an event over 65,536 bytes 413 M_TOO_LARGE, a bad content 400
 * M_BAD_JSON, a valid one 200 {event_id}. A transaction id already used with the token answers the
 * first event's id again and creates nothing (the spec's idempotency).
 */

export const MATRIX_MAX_EVENT_BYTES = 65_536;

const matrixContentSchema = z.strictObject({
  msgtype: z.literal('m.text'),
  body: z.string().min(1),
  format: z.literal('org.matrix.custom.html').optional(),
  formatted_body: z.string().optional(),
  'm.mentions': z
    .strictObject({ user_ids: z.array(z.string()).optional(), room: z.boolean().optional() })
    .optional(),
});

const matrixError = (status: number, errcode: string, error: string, extra: Record<string, unknown> = {}) =>
  json(status, { errcode, error, ...extra });

export const matrixRateLimit = () =>
  matrixError(429, 'M_LIMIT_EXCEEDED', 'Too Many Requests', { retry_after_ms: 2000 });

export async function startMatrixReceiver(tls: KeyPair, token: string, roomId: string) {
  const events: { eventId: string; txnId: string; content: z.output<typeof matrixContentSchema> }[] = [];
  const prefix = `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/`;
  const receiver = await startProviderReceiver(tls, (request) => {
    const auth = request.headers.authorization;
    if (!auth) return matrixError(401, 'M_MISSING_TOKEN', 'Missing access token.');
    if (auth !== `Bearer ${token}`)
      return matrixError(401, 'M_UNKNOWN_TOKEN', 'Unrecognised access token.', { soft_logout: false });
    const match = /^\/_matrix\/client\/v3\/rooms\/([^/]+)\/send\/m\.room\.message\/([^/?]+)$/.exec(
      request.path,
    );
    if (request.method !== 'PUT' || !match) return matrixError(404, 'M_UNRECOGNIZED', 'Unrecognized request');
    if (!request.path.startsWith(prefix))
      return matrixError(
        403,
        'M_FORBIDDEN',
        `User @vigil:localhost not in room ${decodeURIComponent(match[1] ?? '')}`,
      );
    if (request.body.length > MATRIX_MAX_EVENT_BYTES)
      return matrixError(413, 'M_TOO_LARGE', 'Event too large');
    const parsed = matrixContentSchema.safeParse(parsedBody(request));
    if (!parsed.success) return matrixError(400, 'M_BAD_JSON', z.prettifyError(parsed.error));
    const txnId = decodeURIComponent(match[2] ?? '');
    const known = events.find((event) => event.txnId === txnId);
    if (known) return json(200, { event_id: known.eventId });
    const eventId = `$event${events.length + 1}:localhost`;
    events.push({ eventId, txnId, content: parsed.data });
    return json(200, { event_id: eventId });
  });
  return { ...receiver, events };
}

export type MatrixReceiver = ProviderReceiver & {
  events: { eventId: string; txnId: string; content: z.output<typeof matrixContentSchema> }[];
};
