import { type ChannelForm, webhookUrlField } from './form';

export const discordForm: ChannelForm = {
  label: 'Discord',
  fields: [webhookUrlField('Channel settings → Integrations → Webhooks → copy the URL')],
};
