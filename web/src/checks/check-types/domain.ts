import type { CheckTypeForm } from './form';

export const domainForm: CheckTypeForm<'domain'> = {
  label: 'Domain expiry',
  kind: 'configured',
  nameExample: 'Domain example.com',
  fields: [
    { key: 'domain', label: 'Domain', kind: 'text', required: true, placeholder: 'example.com' },
    {
      key: 'expiry_threshold_days',
      label: 'Expiry threshold (days)',
      kind: 'number',
      placeholder: '30',
      hint: 'Degraded when the registration expires within this many days; down once expired',
    },
  ],
  tls: false,
  target: (check) => `domain ${check.config.domain}`,
  rows: (check) => [
    ['Domain', check.config.domain],
    ['Expiry threshold', `${check.config.expiry_threshold_days ?? 30} days`],
  ],
};
