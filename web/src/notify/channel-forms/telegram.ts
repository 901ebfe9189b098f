import type { ChannelForm } from './form';

/** Telegram: a bot's token (from @BotFather) and the chat it posts to. */
export const telegramForm = {
  label: 'Telegram',
  fields: [
    {
      key: 'bot_token',
      label: 'Bot token',
      kind: 'secret',
      required: true,
      hint: 'The token @BotFather gave when you created the bot (/newbot). Add the bot to the group or channel first.',
      placeholder: '123456789:AAE…',
    },
    {
      key: 'chat_id',
      label: 'Chat',
      kind: 'text',
      required: true,
      hint: "The chat's id (a number; groups and channels start with -100) or a public channel as @channelusername.",
      placeholder: '-1001234567890',
    },
  ],
  people: {
    telegram: {
      label: 'Telegram',
      address: {
        label: 'Address (Telegram chat id)',
        type: 'text',
        hint: 'Your chat with the account’s bot',
      },
    },
  },
} satisfies ChannelForm;
