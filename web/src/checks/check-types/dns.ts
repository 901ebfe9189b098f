import type { CheckTypeForm } from './form';

export const dnsForm: CheckTypeForm<'dns'> = {
  label: 'DNS record',
  kind: 'configured',
  nameExample: 'DNS A example.com',
  fields: [
    { key: 'hostname', label: 'Hostname', kind: 'text', required: true, placeholder: 'example.com' },
    {
      key: 'record_type',
      label: 'Record type',
      kind: 'select',
      options: ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA'],
    },
    {
      key: 'expected_value',
      label: 'Expected value',
      kind: 'text',
      hint: 'Passes when any answer matches (optional)',
    },
    { key: 'nameserver', label: 'Nameserver', kind: 'text', hint: 'Optional; the system resolver otherwise' },
  ],
  tls: false,
  target: (check) => `dns ${check.config.record_type} ${check.config.hostname}`,
  rows: (check) => [
    ['Hostname', check.config.hostname],
    ['Record type', check.config.record_type],
    ...(check.config.expected_value
      ? ([['Expected value', check.config.expected_value]] as [string, string][])
      : []),
    ...(check.config.nameserver ? ([['Nameserver', check.config.nameserver]] as [string, string][]) : []),
  ],
};
