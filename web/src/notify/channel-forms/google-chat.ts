import type { ChannelForm } from './form';

export const googleChatForm: ChannelForm = {
  label: 'Google Chat',
  fields: [
    {
      key: 'url',
      label: 'Webhook URL',
      kind: 'url',
      required: true,
      hint: 'In the space: Apps & integrations → Webhooks → Add webhook; copy its URL. Its key and token are the secret, so read-only keys see it as ********.',
      placeholder: 'https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…',
    },
  ],
};
