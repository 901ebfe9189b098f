import type { CheckTypeForm } from './form';

export const tcpForm: CheckTypeForm<'tcp'> = {
  label: 'TCP port',
  kind: 'configured',
  nameExample: 'TCP db.internal:5432',
  fields: [
    { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'db.internal' },
    { key: 'port', label: 'Port', kind: 'number', required: true, placeholder: '5432' },
  ],
  tls: false,
  target: (check) => `tcp ${check.config.host}:${check.config.port}`,
  rows: (check) => [
    ['Host', check.config.host],
    ['Port', String(check.config.port)],
  ],
};
