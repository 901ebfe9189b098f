import * as z from 'zod';
import { defineProviderChannel } from './channel-use.ts';
import { redactedView, shownSecret } from './config-fields.ts';
import { type AlertMessage, clip, type DigestMessage, linesWithin, type Tone } from './message.ts';
import { definePersonUse, sendingFrom, sent } from './person-use.ts';
import type { ProviderSendDeps } from './ports.ts';
import type { Provider } from './provider.ts';
import {
  field,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';

/**
 * Telegram (Bot API sendMessage, https://core.telegram.org/bots/api#sendmessage), defined once:
 * the bot's token travels in the URL's path, so neither the URL nor the token ever appears in an
 * error; the text is MarkdownV2, every character of user text escaped as the API documents, so an
 * entity name cannot add a link or formatting. Its uses: the alert channel (at most 4,096
 * characters after the markup is parsed) and people's Telegram.
 */

/** Fixed: the Bot API's host (tests reach a local receiver through the egress resolver and CA). */
const TELEGRAM_API = 'https://api.telegram.org';

/** MarkdownV2: these (and the backslash) must be escaped with a preceding backslash outside entities. */
const RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** User text as MarkdownV2 that renders literally. */
export function escapeMarkdownV2(text: string): string {
  return text.replace(RESERVED, (c) => `\\${c}`);
}

/** "Bad Request: chat not found"; a 429's parameters.retry_after as a sentence. */
function explain(answer: ProviderAnswer): string | undefined {
  const description = field(answer.json, 'description');
  if (description === undefined) return undefined;
  const parameters = (answer.json as { parameters?: { retry_after?: unknown } }).parameters;
  const wait = parameters?.retry_after;
  // "Too Many Requests: retry after 7" usually says it already; parameters.retry_after is the rule.
  const said = typeof wait !== 'number' || String(description).includes(`retry after ${wait}`);
  return said ? String(description) : `${description}; retry after ${wait} s`;
}

/** Sends one MarkdownV2 message (already escaped) from the bot to the chat, without a link preview. */
function sendTelegram(
  http: ProviderHttp,
  bot: { token: string; chatId: string },
  markdownV2: string,
): Promise<ProviderOutcome> {
  const body = JSON.stringify({
    chat_id: bot.chatId,
    text: markdownV2,
    parse_mode: 'MarkdownV2',
    link_preview_options: { is_disabled: true },
  });
  return postToProvider(
    http,
    'Telegram',
    {
      url: `${TELEGRAM_API}/bot${bot.token}/sendMessage`,
      headers: { 'content-type': 'application/json' },
      body,
    },
    { secrets: [bot.token], explain },
  );
}

/** sendMessage's text limit, counted after entities parsing (UTF-16 units, as JavaScript counts). */
const TELEGRAM_MAX_TEXT = 4096;

/** Inside the (...) of an inline link only `)` and `\` are escaped. */
function escapeLinkUrl(url: string): string {
  return url.replace(/[)\\]/g, (c) => `\\${c}`);
}

const MAX_NOTE = 2000;
const EMOJI: Record<Tone, string> = { down: '🔴', degraded: '🟠', up: '🟢', other: '⚪' };

/** A bot token as @BotFather gives it: `<bot id>:<35 characters>`. */
const botToken = z
  .string()
  .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, 'Enter the bot token @BotFather gave, such as 123456789:AAE….')
  .meta({ description: 'The bot token from @BotFather (write-only)' });

/** A chat's integer id (groups and channels are negative) or a public channel's @username. */
const chatId = z
  .string()
  .regex(
    /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/,
    'Enter the chat id (a number such as -1001234567890) or a public channel as @channelusername.',
  )
  .meta({ description: 'A chat id (-1001234567890) or @channelusername' });

const config = z.strictObject({ bot_token: botToken, chat_id: chatId });
type TelegramConfig = z.output<typeof config>;

/** The message's text: a bold title, the note in italics, one line per fact, the console link. */
function telegramText(message: AlertMessage): string {
  const lines = [`${EMOJI[message.tone]} *${escapeMarkdownV2(message.title)}*`];
  // Title ≤ 200 and facts ≤ ~1,500 characters (message.ts clips them): the note keeps the rest under 4,096.
  if (message.note) lines.push(`_${escapeMarkdownV2(clip(message.note, MAX_NOTE))}_`);
  for (const fact of message.facts)
    lines.push(`*${escapeMarkdownV2(fact.label)}:* ${escapeMarkdownV2(fact.value)}`);
  if (message.link) lines.push(`[Open in Vigil](${escapeLinkUrl(message.link)})`);
  return lines.join('\n');
}

/** A digest part: the title, the summary, and as many event lines as 4,096 parsed characters hold. */
function telegramDigestText(message: DigestMessage): string {
  const title = clip(message.title, 256);
  const summary = message.summary.map((line) => clip(line, 1024));
  // The budget counts what Telegram shows (escapes and markup are not counted), with room for the emoji.
  const head = [title, ...summary].reduce((n, line) => n + line.length + 1, 4);
  const lines = linesWithin(message.lines, TELEGRAM_MAX_TEXT - head - 1, (line) => line.length);
  return [
    `${EMOJI[message.tone]} *${escapeMarkdownV2(title)}*`,
    ...summary.map(escapeMarkdownV2),
    '',
    ...lines.map(escapeMarkdownV2),
  ].join('\n');
}

function post(deps: ProviderSendDeps, cfg: TelegramConfig, text: string) {
  return sendTelegram(deps.http, { token: cfg.bot_token, chatId: cfg.chat_id }, text);
}

const channel = defineProviderChannel({
  label: 'Telegram',
  input: config,
  stored: z.object({ bot_token: z.string(), chat_id: z.string() }),
  view: z.object({ bot_token: redactedView.optional(), chat_id: z.string() }),
  secrets: ['bot_token'],
  present: (cfg) => ({ config: { ...shownSecret('bot_token', cfg.bot_token), chat_id: cfg.chat_id } }),
  // The host is fixed; the guard still judges where it resolves (and every send judges it again).
  destinations: () => [{ path: 'config.bot_token', url: `${TELEGRAM_API}/` }],
  send: (deps, config, alert) => post(deps, config, telegramText(alert.message)),
  sendDigest: (deps, config, digest) => post(deps, config, telegramDigestText(digest.message)),
});

/** The bot of a shared Telegram channel. */
const bot = z.object({ bot_token: z.string() });

/**
 * People's Telegram: from the bot of the account's shared Telegram channel, to the person's own
 * chat with that bot (they start it first); MarkdownV2 with every reserved character escaped, so
 * the text renders as written.
 */
const people = {
  telegram: definePersonUse({
    label: 'Telegram',
    address: z
      .string()
      .regex(/^-?\d{1,20}$/, 'Enter your chat id with the account’s bot: a number such as 123456789.')
      .meta({ description: 'Your chat id with the account’s Telegram bot' }),
    ...sendingFrom(
      (accounts) => accounts.find('telegram', (config) => bot.safeParse(config).data?.bot_token),
      {
        none: 'this account has no shared Telegram channel',
        add: 'an admin adds one, and its bot sends the messages',
      },
      (deps, token, target, message) =>
        sent(sendTelegram(deps.http, { token, chatId: target.address }, escapeMarkdownV2(message.text))),
    ),
  }),
};

export const telegramProvider = { channel, people } satisfies Provider;
