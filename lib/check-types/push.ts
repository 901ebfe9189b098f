import * as z from 'zod';
import type { PushCheckType } from './definition.ts';
import { everyWords, PUSH_MAX_INTERVAL_SECONDS } from './fields.ts';

const input = z.strictObject({
  grace_seconds: z
    .number()
    .int()
    .min(1)
    .max(2 * PUSH_MAX_INTERVAL_SECONDS)
    .optional()
    .meta({
      description:
        'The whole silence allowed after a result before the check fails (not added to the interval): at least interval_seconds; default interval_seconds x 2',
    }),
});
const stored = z.object({ grace_seconds: z.number().int().optional() });

/**
 * push: the monitored job reports (POST /v1/push/{token}); no report within the grace window
 * fails the check (a dead man's switch). Never probed.
 */
export const pushCheckType = {
  kind: 'push',
  label: 'Push',
  input,
  stored,
  tls: false,
  defaultName: (check) => `Push check for ${check.entity_slug}, ${everyWords(check.interval_seconds)}`,
  targetLabel: () => 'push',
} satisfies PushCheckType<z.output<typeof stored>>;
