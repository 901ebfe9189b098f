import type { CheckTypeForm } from './form';

export const icmpForm: CheckTypeForm<'icmp'> = {
  label: 'Ping (ICMP)',
  kind: 'configured',
  nameExample: 'Ping router.lan',
  fields: [
    { key: 'host', label: 'Host', kind: 'text', required: true, placeholder: 'router.lan' },
    {
      key: 'count',
      label: 'Echo requests',
      kind: 'number',
      placeholder: '3',
      hint: '1 to 10 per run; default 3',
    },
    {
      key: 'max_loss_percent',
      label: 'Loss allowed (%)',
      kind: 'number',
      placeholder: '0',
      hint: 'Degraded above this loss; down when every echo is lost',
    },
    {
      key: 'degraded_rtt_ms',
      label: 'Degraded round trip (ms)',
      kind: 'number',
      hint: 'Degraded when the average round trip is slower; empty: never',
    },
  ],
  tls: false,
  target: (check) => `icmp ${check.config.host}`,
  rows: (check) => [
    ['Host', check.config.host],
    ['Echo requests', String(check.config.count ?? 3)],
    ['Loss allowed', `${check.config.max_loss_percent ?? 0}%`],
    ...(check.config.degraded_rtt_ms !== undefined
      ? [['Degraded round trip', `${check.config.degraded_rtt_ms} ms`] as [string, string]]
      : []),
  ],
};
