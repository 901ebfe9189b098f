import {
  field,
  type ProviderAnswer,
  type ProviderHttp,
  type ProviderOutcome,
  postToProvider,
} from './provider-post.ts';

/**
 * Telegram (Bot API sendMessage, https://core.telegram.org/bots/api#sendmessage), defined once for
 * its uses (lib/notify/channels/telegram.ts: alert channels and people's Telegram contact
 * methods): the bot's token travels in the URL's path, so neither the URL
 * nor the token ever appears in an error; the text is MarkdownV2, every character of user text
 * escaped as the API documents, so an entity name cannot add a link or formatting.
 */

/** Fixed: the Bot API's host (tests reach a local receiver through the egress resolver and CA). */
export const TELEGRAM_API = 'https://api.telegram.org';

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
export function sendTelegram(
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
