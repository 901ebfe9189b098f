import type { UptimeSubject } from './uptime-section';

/** The uptime reads' keys: a check's or an entity's uptime, one window at a time. */
export const uptimeKeys = {
  all: ['uptime'] as const,
  of: (subject: UptimeSubject) =>
    subject.kind === 'check'
      ? ([...uptimeKeys.all, 'check', subject.id] as const)
      : ([...uptimeKeys.all, 'entity', subject.blueprint, subject.slug] as const),
  window: (subject: UptimeSubject, window: string) => [...uptimeKeys.of(subject), window] as const,
};
