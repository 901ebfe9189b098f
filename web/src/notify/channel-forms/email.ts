import type { ChannelForm } from './form';

export const emailForm: ChannelForm = {
  label: 'Email',
  fields: [
    {
      key: 'to',
      label: 'Recipients',
      kind: 'list',
      required: true,
      placeholder: 'oncall@example.com, ops@example.com',
      hint: '1 to 10 addresses, separated by commas; each new address gets a confirmation link and receives alerts once confirmed (a team member’s address needs none)',
    },
  ],
};
