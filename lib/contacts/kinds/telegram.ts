import * as z from 'zod';
import { defineContactKind, sendingFrom } from './definition.ts';
import { postToProvider } from './provider-post.ts';

/**
 * Telegram (Bot API sendMessage, https://core.telegram.org/bots/api#sendmessage) from the bot of
 * the account's shared Telegram channel, to the person's own chat with that bot (they start it
 * first); MarkdownV2 with every reserved character escaped, so the text renders as written.
 */

const TELEGRAM_API = 'https://api.telegram.org';
const escaped = (text: string) => text.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, (c) => `\\${c}`);

export const telegramContact = defineContactKind({
  label: 'Telegram',
  address: z
    .string()
    .regex(/^-?\d{1,20}$/, 'Enter your chat id with the account’s bot: a number such as 123456789.')
    .meta({ description: 'Your chat id with the account’s Telegram bot' }),
  ...sendingFrom(
    (accounts) => accounts.telegram?.bot_token,
    {
      none: 'this account has no shared Telegram channel',
      add: 'an admin adds one, and its bot sends the messages',
    },
    (deps, token, target, message) =>
      postToProvider(
        deps,
        'Telegram',
        {
          url: `${TELEGRAM_API}/bot${token}/sendMessage`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            chat_id: target.address,
            text: escaped(message.text),
            parse_mode: 'MarkdownV2',
          }),
        },
        [token],
      ),
  ),
});
