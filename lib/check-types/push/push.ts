import * as z from 'zod';
import type { PushCheckType } from '../contract/definition.ts';
import { everyWords, PUSH_MAX_INTERVAL_SECONDS } from '../contract/fields.ts';

/** What a slug URL names (`/ping/<ping key>/<slug>`): Healthchecks' slug alphabet. */
export const PUSH_SLUG_PATTERN = /^[a-z0-9_-]{1,100}$/;

/** A cron schedule read in an IANA timezone (lib/domain/schedules/heartbeat.ts computes its expected times). */
const scheduleInput = z.strictObject({
  cron: z.string().min(1).max(200).meta({
    description:
      'A 5-field cron expression (minute hour day-of-month month day-of-week): when a run is expected',
    example: '0 3 * * *',
  }),
  timezone: z.string().min(1).max(64).default('UTC').meta({
    description: 'The IANA timezone the expression is read in (DST followed); default UTC',
    example: 'Europe/Berlin',
  }),
});

const input = z.strictObject({
  grace_seconds: z
    .number()
    .int()
    .min(1)
    .max(2 * PUSH_MAX_INTERVAL_SECONDS)
    .optional()
    .meta({
      description:
        'With an interval: the whole silence allowed after a success before the check fails (at least interval_seconds; default interval_seconds x 2). With a schedule: how long after an expected time a success may still arrive (default 3600), and how long a started run may take',
    }),
  schedule: scheduleInput.optional().meta({
    description:
      'Expect a run at each time of this cron schedule instead of every interval_seconds (interval_seconds is then derived: the gap between the next two expected times)',
  }),
  max_duration_seconds: z.number().int().min(1).max(PUSH_MAX_INTERVAL_SECONDS).optional().meta({
    description: 'A run (from /start to its end) longer than this is recorded as degraded',
  }),
  min_duration_seconds: z.number().int().min(1).max(PUSH_MAX_INTERVAL_SECONDS).optional().meta({
    description:
      'A run (from /start to its success) that ends sooner than this is recorded as failed ("finished in 4 s; expected at least 10 min")',
  }),
  overlap: z.enum(['allow', 'alert']).optional().meta({
    description:
      'alert: a /start while another run of the check is still running is recorded as failed; allow (the default): runs may overlap',
  }),
  keepalive_seconds: z.number().int().min(1).max(PUSH_MAX_INTERVAL_SECONDS).optional().meta({
    description:
      'A started run with no /start or /log for this long is hung: recorded as failed ("hung: no /start or /log since …")',
  }),
  early_seconds: z.number().int().min(1).max(PUSH_MAX_INTERVAL_SECONDS).optional().meta({
    description:
      'With a schedule: a run that starts more than this before its scheduled time is recorded as failed ("started 40 min before its 02:00 schedule")',
  }),
  learn: z.boolean().optional().meta({
    description:
      "false: do not learn the job's normal (its runs' durations and, with a schedule, start times) nor flag runs far outside it; default true",
  }),
  slug: z.string().regex(PUSH_SLUG_PATTERN).optional().meta({
    description:
      "The check's name in slug ping URLs (/ping/<ping key>/<slug>): a-z, 0-9, hyphens and underscores; unique per tenant",
    example: 'nightly-backup',
  }),
});
const stored = z.object({
  grace_seconds: z.number().int().optional(),
  schedule: z.object({ cron: z.string(), timezone: z.string() }).optional(),
  max_duration_seconds: z.number().int().optional(),
  min_duration_seconds: z.number().int().optional(),
  overlap: z.enum(['allow', 'alert']).optional(),
  keepalive_seconds: z.number().int().optional(),
  early_seconds: z.number().int().optional(),
  learn: z.boolean().optional(),
  slug: z.string().optional(),
});
export type PushConfig = z.output<typeof stored>;

/**
 * push: the monitored job reports (its ping URLs, or POST /v1/checks/{id}/results); no success by
 * the deadline (lib/domain/schedules/heartbeat.ts) fails the check (a dead man's switch). Never probed.
 */
export const pushCheckType = {
  kind: 'push',
  label: 'Push',
  input,
  stored,
  tls: false,
  defaultName: (check) => `Push check for ${check.entity_slug}, ${everyWords(check.interval_seconds)}`,
  targetLabel: () => 'push',
} satisfies PushCheckType<PushConfig>;
