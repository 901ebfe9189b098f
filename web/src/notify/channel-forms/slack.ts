import { type ChannelForm, webhookUrlField } from './form';

export const slackForm: ChannelForm = {
  label: 'Slack',
  fields: [webhookUrlField('The incoming webhook URL (https://hooks.slack.com/…)')],
};
