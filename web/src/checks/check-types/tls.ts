import type { CheckTypeForm } from './form';

export const tlsForm: CheckTypeForm<'tls'> = {
  label: 'TLS certificate',
  kind: 'configured',
  nameExample: 'TLS example.com',
  fields: [
    { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'db.internal' },
    { key: 'port', label: 'Port', kind: 'number', placeholder: '443', hint: 'Default 443' },
    { key: 'servername', label: 'Server name (SNI)', kind: 'text', hint: 'Defaults to the host' },
    {
      key: 'expiry_threshold_days',
      label: 'Expiry threshold (days)',
      kind: 'number',
      placeholder: '14',
      hint: 'Degraded when the certificate expires within this many days; down once expired',
    },
  ],
  tls: true,
  target: (check) => `tls ${check.config.host}:${check.config.port ?? 443}`,
  rows: (check) => [
    ['Host', check.config.host],
    ['Port', String(check.config.port ?? 443)],
    ['Server name', check.config.servername ?? check.config.host],
    ['Expiry threshold', `${check.config.expiry_threshold_days ?? 14} days`],
  ],
};
