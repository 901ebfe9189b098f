import type { ChannelForm } from './form';

export const slackForm: ChannelForm = {
  label: 'Slack',
  fields: [
    {
      key: 'url',
      label: 'URL',
      kind: 'url',
      required: true,
      placeholder: 'https://',
      hint: 'The incoming webhook URL (https://hooks.slack.com/…)',
    },
  ],
};
