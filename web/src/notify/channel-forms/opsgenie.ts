import type { ChannelForm } from './form.ts';

/** Opsgenie's Alert API: an API integration's key and the account's instance. */
export const opsgenieForm: ChannelForm = {
  label: 'Opsgenie',
  fields: [
    {
      key: 'api_key',
      label: 'API key',
      kind: 'secret',
      required: true,
      hint: 'The API Key of an API integration (Settings → Integrations → API in Opsgenie).',
    },
    {
      key: 'region',
      label: 'Instance',
      kind: 'select',
      options: ['us', 'eu'],
      hint: 'eu for an account on app.eu.opsgenie.com (api.eu.opsgenie.com).',
    },
  ],
};
