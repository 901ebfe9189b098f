import * as z from 'zod';
import { HTTP_URL_PATTERN } from '../../domain/formats.ts';
import { REDACTED } from '../../domain/redaction.ts';
import { escapeHtml } from '../../providers/email-message.ts';
import type { SendOutcome } from '../items/ports.ts';
import { fitLines, sendJson, utf8Bytes } from './chat-common.ts';
import { type ChannelSendDeps, defineChannel } from './definition.ts';
import { type DigestMessage, describeDigest } from './digest-message.ts';
import { type AlertMessage, clip, messageFor, plainText } from './message.ts';

/**
 * Matrix through the client-server API: `PUT {homeserver}/_matrix/client/v3/rooms/{roomId}/send/
 * m.room.message/{txnId}` with the access token as a Bearer header. The transaction id is the
 * delivery's id, the same on every attempt, so a retried attempt the homeserver already took is
 * the same event (the spec's idempotency per access token), not a second message. An event holds
 * at most 65,536 bytes: every content is kept under MAX_BYTES.
 */

const MAX_BYTES = 60_000;
/** Annotated, so the mask keeps its literal type in the view (a bare const widens to string there). */
const MASK: typeof REDACTED = REDACTED;
const MAX_TITLE = 300;

/** formatted_body is HTML (org.matrix.custom.html): every user text escaped. */
const html = (text: string) => escapeHtml(text);

/**
 * The message content: plain `body` and HTML `formatted_body`. An empty `m.mentions` says the
 * message mentions no one, so "@room" in a name notifies no one (clients since Matrix 1.7).
 */
function content(body: string, formatted: string): Record<string, unknown> {
  return {
    msgtype: 'm.text',
    body,
    format: 'org.matrix.custom.html',
    formatted_body: formatted,
    'm.mentions': {},
  };
}

function matrixContent(message: AlertMessage): Record<string, unknown> {
  const parts = [`<p><strong>${html(clip(message.title, MAX_TITLE))}</strong></p>`];
  if (message.note) parts.push(`<p>${html(message.note)}</p>`);
  const facts = message.facts.map(
    (fact) => `<li><strong>${html(fact.label)}:</strong> ${html(fact.value)}</li>`,
  );
  parts.push(`<ul>${facts.join('')}</ul>`);
  if (message.link) parts.push(`<p><a href="${html(message.link)}">Open in Vigil</a></p>`);
  return content(plainText({ ...message, title: clip(message.title, MAX_TITLE) }, true), parts.join(''));
}

function matrixDigestContent(digest: DigestMessage): Record<string, unknown> {
  const title = clip(digest.title, MAX_TITLE);
  const build = (lines: string[]) =>
    content(
      [title, ...digest.summary, '', ...lines].join('\n'),
      [
        `<p><strong>${html(title)}</strong></p>`,
        ...digest.summary.map((line) => `<p>${html(line)}</p>`),
        `<ul>${lines.map((line) => `<li>${html(line)}</li>`).join('')}</ul>`,
      ].join(''),
    );
  return build(fitLines(digest.lines, (kept) => utf8Bytes(build(kept)) <= MAX_BYTES));
}

/** An http(s) URL as HTTP_URL_PATTERN, its path without `?` or `#`: the API's paths are appended to it. */
const HOMESERVER_PATTERN = HTTP_URL_PATTERN.replace(
  '(?:[/?#][\\x21-\\x7e]*)?$',
  '(?:/[\\x21-\\x22\\x24-\\x3e\\x40-\\x7e]*)?$',
);

function isBaseUrl(value: string): boolean {
  if (/[?#]/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const homeserver = z
  .string()
  .max(2048, 'Enter a URL of at most 2048 characters.')
  .refine(
    isBaseUrl,
    'Enter the homeserver base URL, such as https://matrix.example.org (no query or fragment; http:// only for one VIGIL_EGRESS_ALLOW allows).',
  )
  .meta({
    pattern: HOMESERVER_PATTERN,
    description: 'The homeserver base URL (https; http:// only in a range VIGIL_EGRESS_ALLOW allows)',
  });

const roomId = z
  .string()
  .superRefine((value, ctx) => {
    if (value.startsWith('#'))
      ctx.addIssue({
        code: 'custom',
        message:
          'Enter the room ID (!…:server, under Settings → Advanced in Element), not its alias: aliases are not resolved.',
      });
    else if (value.length > 255 || !/^![\x21-\x39\x3b-\x7e]+:[\x21-\x7e]+$/.test(value))
      ctx.addIssue({ code: 'custom', message: 'Enter a room ID such as !abcdefgh:matrix.example.org.' });
  })
  .meta({
    pattern: '^![\\x21-\\x39\\x3b-\\x7e]+:[\\x21-\\x7e]+$',
    description: 'The room ID (!…:server), not an alias (#…:server)',
  });

const accessToken = z
  .string()
  .min(1, 'Enter the access token of the account that posts.')
  .max(1024, 'Enter at most 1024 characters.')
  .regex(/^[\x21-\x7e]+$/, 'Use printable ASCII characters without spaces.');

const config = z.strictObject({ homeserver, room_id: roomId, access_token: accessToken });
type MatrixConfig = z.output<typeof config>;

/** The send URL of one event: room and transaction id are path segments, so encoded. */
function matrixSendUrl(stored: MatrixConfig, txnId: string): string {
  const base = stored.homeserver.replace(/\/+$/, '');
  return `${base}/_matrix/client/v3/rooms/${encodeURIComponent(stored.room_id)}/send/m.room.message/${encodeURIComponent(txnId)}`;
}

function put(
  deps: ChannelSendDeps,
  stored: MatrixConfig,
  txnId: string,
  body: unknown,
): Promise<SendOutcome> {
  return sendJson(
    deps.http,
    {
      url: matrixSendUrl(stored, txnId),
      method: 'PUT',
      headers: { authorization: `Bearer ${stored.access_token}` },
      body,
    },
    [stored.access_token],
  );
}

export const matrixChannel = defineChannel({
  label: 'Matrix',
  input: config,
  stored: z.object({ homeserver: z.string(), room_id: z.string(), access_token: z.string() }),
  view: z.strictObject({
    homeserver: z.string(),
    room_id: z.string(),
    access_token: z.literal(REDACTED).meta({ description: 'Write-only: always shown as ********' }),
  }),
  secrets: ['access_token'],
  present: (stored) => ({
    config: { homeserver: stored.homeserver, room_id: stored.room_id, access_token: MASK },
  }),
  destinations: (stored) => [{ path: 'config.homeserver', url: stored.homeserver }],
  send: (deps, channel, alert) =>
    put(deps, channel.config, alert.deliveryId, matrixContent(messageFor(channel, alert, deps.publicUrl))),
  sendDigest: (deps, channel, digest) =>
    put(deps, channel.config, digest.deliveryId, matrixDigestContent(describeDigest(digest))),
});
