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
      placeholder: (d) =>
        d.config?.expect === 'cron'
          ? '3600'
          : d.interval_seconds
            ? String(Number(d.interval_seconds) * 2)
            : '120',
      hint: 'Every interval: the whole silence allowed after a report, counted from it (at least the interval; default twice the interval). On a cron schedule: how long after each expected time a success may still arrive (at least 60; default an hour)',
    },
    {
      key: 'max_duration_seconds',
      label: 'Max run duration (seconds)',
      kind: 'number',
      hint: 'A run (from its /start ping to its end) longer than this is degraded; blank: no limit',
    },
  ],
  tls: false,
  target: () => 'push',
  rows: (check) => {
    const { schedule, grace_seconds, max_duration_seconds } = check.config;
    const grace = grace_seconds ?? (schedule ? 3600 : check.interval_seconds * 2);
    return [
      ...(schedule ? [['Schedule', `${schedule.cron} (${schedule.timezone})`] as [string, string]] : []),
      ['Grace', `${grace} s`],
      ...(max_duration_seconds
        ? [['Max run duration', `${max_duration_seconds} s`] as [string, string]]
        : []),
    ];
  },
};
