import type { ChannelForm } from './form.ts';

/** PagerDuty's Events API v2: one integration key, and the account's service region. */
export const pagerdutyForm: ChannelForm = {
  label: 'PagerDuty',
  fields: [
    {
      key: 'routing_key',
      label: 'Integration key',
      kind: 'secret',
      required: true,
      hint: 'The 32-character Integration Key of an Events API V2 integration of the service (Service → Integrations in PagerDuty).',
    },
    {
      key: 'region',
      label: 'Service region',
      kind: 'select',
      options: ['us', 'eu'],
      hint: 'eu for an account in PagerDuty’s EU service region (events.eu.pagerduty.com).',
    },
  ],
};
