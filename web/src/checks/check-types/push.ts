import type { CheckTypeForm } from './form';

export const pushForm: CheckTypeForm<'push'> = {
  label: 'Push (your agent reports)',
  kind: 'push',
  nameExample: 'Push check for <entity>, every 1 min',
  fields: [
    {
      key: 'grace_seconds',
      label: 'Grace (seconds)',
      kind: 'number',
      placeholder: (d) => (d.interval_seconds ? String(Number(d.interval_seconds) * 2) : '120'),
      hint: 'The whole silence allowed after a report, counted from it (at least the interval); default twice the interval',
    },
  ],
  tls: false,
  target: () => 'push',
  rows: (check) => [['Grace', `${check.config.grace_seconds ?? check.interval_seconds * 2} s`]],
};
