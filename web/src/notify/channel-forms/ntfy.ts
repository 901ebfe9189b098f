import { type ChannelForm, webhookUrlField } from './form';

export const ntfyForm = {
  label: 'ntfy',
  fields: [
    webhookUrlField('The full topic URL, e.g. https://ntfy.sh/my-topic'),
    {
      key: 'token',
      label: 'Access token',
      kind: 'secret',
      hint: 'Optional, for a protected topic; shown as ******** afterwards',
      whileSet: 'with token',
    },
  ],
  people: {
    ntfy: {
      label: 'ntfy',
      address: { label: 'Address (ntfy topic URL)', type: 'url', hint: 'Such as https://ntfy.sh/ana-pages' },
    },
  },
} satisfies ChannelForm;
