import * as z from 'zod';
import { escapeMarkdownV2, sendTelegram } from '../../providers/telegram.ts';
import { defineContactKind, httpOf, sendingFrom, sent } from './definition.ts';

/**
 * Telegram (lib/providers/telegram.ts) from the bot of the account's shared Telegram channel, to
 * the person's own chat with that bot (they start it first); MarkdownV2 with every reserved
 * character escaped, so the text renders as written.
 */

/** The bot of a shared Telegram channel. */
const bot = z.object({ bot_token: z.string() });

export const telegramContact = defineContactKind({
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
      sent(sendTelegram(httpOf(deps), { token, chatId: target.address }, escapeMarkdownV2(message.text))),
  ),
});
