import type { ChannelForm } from './form';

export const discordForm: ChannelForm = {
  label: 'Discord',
  fields: [
    {
      key: 'url',
      label: 'URL',
      kind: 'url',
      required: true,
      placeholder: 'https://',
      hint: 'Channel settings → Integrations → Webhooks → copy the URL',
    },
  ],
};
