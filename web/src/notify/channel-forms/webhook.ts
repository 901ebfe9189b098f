import { type ChannelForm, webhookUrlField } from './form';

export const webhookForm: ChannelForm = {
  label: 'Webhook',
  templates: false,
  fields: [
    webhookUrlField(
      'Any HTTPS endpoint of yours; http:// only for a receiver on your own machine or LAN that VIGIL_EGRESS_ALLOW allows',
    ),
    {
      key: 'secret',
      label: 'Signing secret',
      kind: 'secret',
      hint: 'Optional: requests are signed (X-Service-Signature); shown as ******** afterwards',
      whileSet: 'signed',
    },
  ],
};
