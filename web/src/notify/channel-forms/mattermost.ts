import type { ChannelForm } from './form';

export const mattermostForm: ChannelForm = {
  label: 'Mattermost',
  fields: [
    {
      key: 'url',
      label: 'Webhook URL',
      kind: 'url',
      required: true,
      hint: 'Integrations → Incoming Webhooks → Add Incoming Webhook; copy its URL. Its key is the secret, so read-only keys see it as ********.',
      placeholder: 'https://mattermost.example.com/hooks/…',
    },
    {
      key: 'channel',
      label: 'Channel',
      kind: 'text',
      hint: 'Optional: a channel name as in its URL (town-square) or @username, instead of the webhook’s own channel (unless the webhook is locked to it).',
      placeholder: 'town-square',
    },
  ],
};
