import type { ChannelForm } from './form';

export const emailForm = {
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
  people: {
    email: {
      label: 'E-mail',
      address: { label: 'Address (e-mail)', type: 'email', hint: 'Such as ana@example.com' },
    },
  },
} satisfies ChannelForm;
