import * as z from 'zod';
import type { KeyPair } from '../tls-fixtures.ts';
import { json, type ProviderReceiver, parsedBody, startProviderReceiver } from './base.ts';

/**
 * A Google Chat space's incoming webhook: `POST /v1/spaces/<space>/messages?key=…&token=…`
 * (optionally `threadKey` with `messageReplyOption`). A wrong key or token gets 401
 * UNAUTHENTICATED, a message over 32,000 bytes or not of the documented shape 400
 * INVALID_ARGUMENT, a valid one 200 with the created message (its thread named by threadKey).
 */

export const GOOGLE_CHAT_MAX_BYTES = 32_000;
const GOOGLE_CHAT_MAX_TEXT = 4096;

const widget = z.union([
  z.strictObject({ textParagraph: z.strictObject({ text: z.string() }) }),
  z.strictObject({
    decoratedText: z.strictObject({
      topLabel: z.string().optional(),
      text: z.string(),
      wrapText: z.boolean().optional(),
    }),
  }),
  z.strictObject({
    buttonList: z.strictObject({
      buttons: z.array(
        z.strictObject({
          text: z.string(),
          onClick: z.strictObject({ openLink: z.strictObject({ url: z.url() }) }),
        }),
      ),
    }),
  }),
]);
const googleChatMessageSchema = z.strictObject({
  text: z.string().max(GOOGLE_CHAT_MAX_TEXT).optional(),
  cardsV2: z
    .array(
      z.strictObject({
        cardId: z.string().min(1),
        card: z.strictObject({
          header: z.strictObject({ title: z.string().min(1), subtitle: z.string().optional() }).optional(),
          sections: z
            .array(z.strictObject({ header: z.string().optional(), widgets: z.array(widget).min(1) }))
            .min(1),
        }),
      }),
    )
    .optional(),
});

const googleError = (code: number, status: string, message: string) =>
  json(code, { error: { code, message, status } });

export async function startGoogleChatReceiver(tls: KeyPair, space: string, key: string, token: string) {
  let created = 0;
  const receiver = await startProviderReceiver(tls, (request) => {
    const url = new URL(request.path, 'https://localhost');
    if (request.method !== 'POST' || url.pathname !== `/v1/spaces/${space}/messages`)
      return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (url.searchParams.get('key') !== key || url.searchParams.get('token') !== token)
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const threadKey = url.searchParams.get('threadKey');
    const option = url.searchParams.get('messageReplyOption');
    if (
      threadKey !== null &&
      option !== 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD' &&
      option !== 'REPLY_MESSAGE_OR_FAIL'
    )
      return googleError(400, 'INVALID_ARGUMENT', 'Invalid value for messageReplyOption.');
    if (request.body.length > GOOGLE_CHAT_MAX_BYTES)
      return googleError(400, 'INVALID_ARGUMENT', 'Message exceeds the maximum size of 32000 bytes.');
    const parsed = googleChatMessageSchema.safeParse(parsedBody(request));
    if (!parsed.success) return googleError(400, 'INVALID_ARGUMENT', z.prettifyError(parsed.error));
    created += 1;
    const thread = {
      name: `spaces/${space}/threads/${threadKey ?? `t${created}`}`,
      ...(threadKey ? { threadKey } : {}),
    };
    return json(200, { name: `spaces/${space}/messages/m${created}`, text: parsed.data.text ?? '', thread });
  });
  return { ...receiver, url: `${receiver.origin}/v1/spaces/${space}/messages?key=${key}&token=${token}` };
}

export type GoogleChatReceiver = ProviderReceiver & { url: string };
