import type { ChannelForm } from './form';

/** Pushover: an application's token, the user or group key, and the priority of a change to down. */
export const pushoverForm = {
  label: 'Pushover',
  fields: [
    {
      key: 'app_token',
      label: 'Application API token',
      kind: 'secret',
      required: true,
      hint: 'Create an application at pushover.net/apps/build; its API token is 30 letters and digits.',
    },
    {
      key: 'user_key',
      label: 'User or group key',
      kind: 'secret',
      required: true,
      hint: 'Your user key (on your pushover.net dashboard) or a delivery group’s key.',
    },
    {
      key: 'priority',
      label: 'Priority when down',
      kind: 'number',
      hint: '-2 to 2: 1 (high, the default) bypasses quiet hours; 2 (emergency) repeats until acknowledged. Recoveries go at 0.',
      placeholder: '1',
    },
    {
      key: 'emergency_retry',
      label: 'Emergency: retry every (seconds)',
      kind: 'number',
      hint: 'With priority 2: seconds between repeats, 30 or more (60 by default).',
    },
    {
      key: 'emergency_expire',
      label: 'Emergency: stop after (seconds)',
      kind: 'number',
      hint: 'With priority 2: seconds until the repeats stop, at most 10800 (3,600 by default).',
    },
  ],
  people: {
    pushover: {
      label: 'Pushover',
      address: { label: 'Address (Pushover user key)', type: 'text', hint: '30 letters and digits' },
    },
  },
} satisfies ChannelForm;
