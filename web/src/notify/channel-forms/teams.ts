import type { ChannelForm } from './form';

export const teamsForm: ChannelForm = {
  label: 'Microsoft Teams',
  fields: [
    {
      key: 'url',
      label: 'Workflow URL',
      kind: 'url',
      required: true,
      hint: 'In Teams, the channel’s ⋯ → Workflows → “Post to a channel when a webhook request is received”; copy the URL the workflow shows. It holds its signature, so read-only keys see it as ********.',
      placeholder: 'https://prod-00.westus.logic.azure.com/workflows/…',
    },
  ],
};
