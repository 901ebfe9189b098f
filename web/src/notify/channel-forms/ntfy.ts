import type { ChannelForm } from './form';

export const ntfyForm: ChannelForm = {
  label: 'ntfy',
  fields: [
    {
      key: 'url',
      label: 'URL',
      kind: 'url',
      required: true,
      placeholder: 'https://',
      hint: 'The full topic URL, e.g. https://ntfy.sh/my-topic',
    },
    {
      key: 'token',
      label: 'Access token',
      kind: 'secret',
      hint: 'Optional, for a protected topic; shown as ******** afterwards',
      whileSet: 'with token',
    },
  ],
};
