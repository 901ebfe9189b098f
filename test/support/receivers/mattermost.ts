import * as z from 'zod';
import type { KeyPair } from '../tls-fixtures.ts';
import { json, type ProviderReceiver, parsedBody, startProviderReceiver } from './base.ts';

/**
 * A Mattermost server's incoming webhook: `POST /hooks/<key>` with JSON. An unknown key gets 400
 * "Invalid webhook.", text over 16,383 characters or a body not of the documented shape 400, a
 * `channel` the server does not have 400 "Couldn't find the channel.", a valid post 200 "ok".
 */

export const MATTERMOST_MAX_TEXT = 16_383;

const field = z.strictObject({ short: z.boolean().optional(), title: z.string(), value: z.string() });
const mattermostPostSchema = z.strictObject({
  text: z.string().max(MATTERMOST_MAX_TEXT).optional(),
  channel: z.string().optional(),
  username: z.string().optional(),
  icon_url: z.string().optional(),
  attachments: z
    .array(
      z.strictObject({
        fallback: z.string().optional(),
        color: z
          .string()
          .regex(/^#[0-9a-f]{6}$/i)
          .optional(),
        title: z.string().optional(),
        title_link: z.url().optional(),
        text: z.string().optional(),
        fields: z.array(field).optional(),
      }),
    )
    .optional(),
});

const mmError = (status: number, id: string, message: string) =>
  json(status, { id, message, detailed_error: '', request_id: 'rq1', status_code: status });

export async function startMattermostReceiver(tls: KeyPair, key: string, channels: string[]) {
  const receiver = await startProviderReceiver(tls, (request) => {
    if (request.method !== 'POST' || request.path !== `/hooks/${key}`)
      return mmError(400, 'web.incoming_webhook.invalid.app_error', 'Invalid webhook.');
    if (!String(request.headers['content-type']).startsWith('application/json'))
      return mmError(400, 'web.incoming_webhook.parse.app_error', 'Unable to parse incoming data.');
    const parsed = mattermostPostSchema.safeParse(parsedBody(request));
    if (!parsed.success)
      return mmError(400, 'web.incoming_webhook.parse.app_error', z.prettifyError(parsed.error));
    if (!parsed.data.text && !parsed.data.attachments?.length)
      return mmError(400, 'web.incoming_webhook.text.app_error', 'No text specified.');
    const channel = parsed.data.channel;
    if (channel && !channel.startsWith('@') && !channels.includes(channel))
      return mmError(400, 'web.incoming_webhook.channel.app_error', "Couldn't find the channel.");
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  });
  return { ...receiver, url: `${receiver.origin}/hooks/${key}` };
}

export type MattermostReceiver = ProviderReceiver & { url: string };
