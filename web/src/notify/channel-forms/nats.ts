import type { ChannelForm } from './form';

export const natsForm: ChannelForm = {
  label: 'NATS',
  fields: [
    {
      key: 'subject',
      label: 'Subject',
      kind: 'text',
      required: true,
      placeholder: 'alerts.checkout',
      hint: "Dot-separated tokens, no wildcards; the server is the deployment's VIGIL_NATS_URL",
    },
  ],
  // The subject a consumer subscribes to (tenant-prefixed); null for a refused legacy subject.
  target: ['published_subject', 'subject'],
};
