import { createHash } from 'node:crypto';
import { field, type ProviderHttp, type ProviderOutcome, postToProvider } from './provider-post.ts';

/**
 * ntfy (https://docs.ntfy.sh/publish/), defined once for its uses (lib/notify/channels/ntfy.ts:
 * alert channels and people's ntfy contact methods): the message as the text body of
 * a POST to the topic URL, the rest in ntfy's headers, and ntfy's error words
 * (`{"code":40301,"http":403,"error":"forbidden"}`).
 */

export interface NtfyMessage {
  /** The topic URL. */
  url: string;
  title: string;
  body: string;
  priority: 'high' | 'default';
  /** Tags, which ntfy shows as emojis ("rotating_light"). */
  tags?: string | undefined;
  /** What a click on the notification opens. */
  click?: string | undefined;
  /** An access token for a protected topic. */
  token?: string | undefined;
  /**
   * The message's own id: sent as its sequence id (`X-Sequence-ID`, ntfy 2.16 and later), so a
   * message sent again replaces the first on the devices instead of arriving twice; an older
   * server ignores the header.
   */
  deliveryId?: string | undefined;
}

/**
 * A header-safe value: line breaks removed, and non-ASCII text as an RFC 2047 encoded word, which
 * ntfy decodes (HTTP header values are bytes, and entity names are not always ASCII).
 */
function headerText(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

/**
 * The sequence id of a message id: ntfy takes `^[-_A-Za-z0-9]{1,64}$` (and refuses anything else
 * with a 400), so the id's SHA-256, base64url, under a prefix.
 */
const sequenceId = (deliveryId: string) =>
  `vigil-${createHash('sha256').update(deliveryId).digest('base64url').slice(0, 40)}`;

/** Publishes one message to its topic. */
export function sendNtfy(http: ProviderHttp, message: NtfyMessage): Promise<ProviderOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(message.title),
    priority: message.priority,
  };
  if (message.tags) headers.tags = message.tags;
  if (message.click) headers.click = message.click;
  if (message.token) headers.authorization = `Bearer ${message.token}`;
  if (message.deliveryId) headers['x-sequence-id'] = sequenceId(message.deliveryId);
  return postToProvider(
    http,
    'ntfy',
    { url: message.url, headers, body: message.body },
    { secrets: [message.token], explain: (answer) => field(answer.json, 'error')?.toString() },
  );
}
