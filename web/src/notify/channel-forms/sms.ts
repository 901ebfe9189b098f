import type { ChannelForm } from './form';

/** A person's number, for texts and calls alike. */
const phoneAddress = { label: 'Address (phone number)', type: 'tel', hint: 'E.164, such as +14155550100' };

/** SMS: Twilio (both runtimes) or Amazon SNS (the cloud), to 1 to 10 phone numbers. */
export const smsForm = {
  label: 'SMS',
  target: ['to'],
  fields: [
    {
      key: 'provider',
      label: 'Provider',
      kind: 'select',
      required: true,
      options: ['twilio', 'sns'],
      hint: 'Twilio works everywhere; Amazon SNS only in the cloud deployment (no credentials to enter).',
    },
    {
      key: 'to',
      label: 'Phone numbers',
      kind: 'list',
      required: true,
      hint: '1 to 10 numbers in international form (+ and country code), such as +14155550100.',
    },
    {
      key: 'account_sid',
      label: 'Twilio account SID',
      kind: 'text',
      hint: 'Twilio only: on the Twilio Console’s home page (AC followed by 32 characters).',
    },
    {
      key: 'auth_token',
      label: 'Twilio auth token',
      kind: 'secret',
      hint: 'Twilio only: the account’s auth token, or an API key’s secret when you fill in the API key SID.',
    },
    {
      key: 'api_key_sid',
      label: 'Twilio API key SID',
      kind: 'text',
      hint: 'Optional: SK… to sign in with an API key.',
    },
    {
      key: 'from',
      label: 'Twilio sender',
      kind: 'text',
      hint: 'Twilio only: your Twilio number (+14155550199) or an alphanumeric sender ID; or a messaging service.',
    },
    {
      key: 'messaging_service_sid',
      label: 'Twilio messaging service SID',
      kind: 'text',
      hint: 'Twilio only, instead of a sender: MG followed by 32 characters.',
    },
  ],
  people: {
    sms: {
      label: 'SMS',
      address: phoneAddress,
    },
    voice: {
      label: 'Phone call',
      address: phoneAddress,
    },
  },
} satisfies ChannelForm;
