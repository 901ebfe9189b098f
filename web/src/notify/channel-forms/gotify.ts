import type { ChannelForm } from './form';

/** Gotify: the server's address, an application's token, the priority of a change to down. */
export const gotifyForm: ChannelForm = {
  label: 'Gotify',
  fields: [
    {
      key: 'url',
      label: 'Server URL',
      kind: 'url',
      required: true,
      hint: 'Your Gotify server’s address, such as https://gotify.example.com (http:// only on a network VIGIL_EGRESS_ALLOW allows).',
      placeholder: 'https://gotify.example.com',
    },
    {
      key: 'token',
      label: 'Application token',
      kind: 'secret',
      required: true,
      hint: 'In Gotify’s web UI: Apps, Create application, then copy its token.',
    },
    {
      key: 'priority',
      label: 'Priority when down',
      kind: 'number',
      hint: '0 to 10; 8 by default (a pop-up with sound on Android). Other messages go at 4.',
      placeholder: '8',
    },
  ],
};
