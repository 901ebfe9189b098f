import * as z from 'zod';
import { MAX_REPEAT_SECONDS, MIN_REPEAT_SECONDS } from '../../domain/limits.ts';
import { pageQuery } from '../../http/requests.ts';
import { idSchema, namesResource } from '../../http/route-schemas.ts';
import { CHANNEL_TYPES } from '../channels/registry.ts';
import { messageTemplateSchema } from '../channels/template.ts';
import { DELIVERY_STATUSES } from '../items/delivery-items.ts';
import { channelNameSchema } from './channel-config.ts';

/** Request shapes of the notification routes (the channel body is channel-config.ts's). */

/** Cooldown bounds: none to one day. */
const MAX_COOLDOWN_SECONDS = 86_400;

/** What a person reads at each policy field when its value is refused: one sentence, with the unit. */
const COOLDOWN_WORDS = 'Enter a cooldown from 0 to 86,400 seconds (a day), in whole seconds.';
const REPEAT_WORDS = {
  low: 'Repeat at most every minute: enter 60 seconds or more, or 0 for no repeat.',
  high: 'Repeat at least once a day: enter 86,400 seconds or fewer, or 0 for no repeat.',
};
const FLAP_CHANGES_WORDS = 'Enter 2 to 50 changes, or 0 to turn flap detection off.';
const FLAP_WINDOW_WORDS = 'Enter a flap window from 60 to 86,400 seconds (a minute to a day).';
const FLAP_SETTLE_WORDS = 'Enter a settle time from 60 to 86,400 seconds (a minute to a day).';

export const checkIdParams = z.object({ check_id: idSchema('chk') });
const channelIdSchema = namesResource(idSchema('chn'), 'channel');
export const channelParams = checkIdParams.extend({ channel_id: channelIdSchema });

/** POST /v1/checks/{check_id}/policy: every field optional; absent ones keep their value (or default). */
export const policyBody = z
  .strictObject({
    cooldown_seconds: z
      .int({ error: COOLDOWN_WORDS })
      .min(0, { error: COOLDOWN_WORDS })
      .max(MAX_COOLDOWN_SECONDS, { error: COOLDOWN_WORDS })
      .optional()
      .meta({
        description: `Minimum gap between alerts of the check: 0 to ${MAX_COOLDOWN_SECONDS}; default 300`,
      }),
    notify_on_recovery: z.boolean().optional().meta({ description: 'Also alert on recovery; default true' }),
    silenced: z.boolean().optional().meta({ description: 'Pause all alerts; default false' }),
    // A union rather than a refine, so the document states both the 0 and the bounded range. zod
    // answers the issue of the branch that came closest (30 is "too small" for the range), so every
    // check of a branch carries the sentence.
    repeat_interval_seconds: z
      .union(
        [
          z.literal(0, { error: REPEAT_WORDS.low }),
          z
            .int({ error: REPEAT_WORDS.low })
            .min(MIN_REPEAT_SECONDS, { error: REPEAT_WORDS.low })
            .max(MAX_REPEAT_SECONDS, { error: REPEAT_WORDS.high }),
        ],
        { error: REPEAT_WORDS.low },
      )
      .optional()
      .meta({
        description: `Re-alert every N seconds while down: 0 (never) or ${MIN_REPEAT_SECONDS} to ${MAX_REPEAT_SECONDS}; default 0`,
      }),
    suppress_when_upstream_down: z
      .boolean()
      .optional()
      .meta({ description: 'Hold the alert back while an entity it depends on is down; default true' }),
    flap_changes: z
      .union(
        [
          z.literal(0, { error: FLAP_CHANGES_WORDS }),
          z
            .int({ error: FLAP_CHANGES_WORDS })
            .min(2, { error: FLAP_CHANGES_WORDS })
            .max(50, { error: FLAP_CHANGES_WORDS }),
        ],
        { error: FLAP_CHANGES_WORDS },
      )
      .optional()
      .meta({
        description:
          'Flap detection: more than this many alerts of the check within flap_window_seconds is flapping (one notice, then alerts held until stable): 0 (off) or 2 to 50; default 6',
      }),
    flap_window_seconds: z
      .int({ error: FLAP_WINDOW_WORDS })
      .min(60, { error: FLAP_WINDOW_WORDS })
      .max(86_400, { error: FLAP_WINDOW_WORDS })
      .optional()
      .meta({
        description:
          'The flap window: changes counted within it, and how long a flapping check must have no change for flapping to end: 60 to 86,400; default 1,800',
      }),
    flap_settle_seconds: z
      .int({ error: FLAP_SETTLE_WORDS })
      .min(60, { error: FLAP_SETTLE_WORDS })
      .max(86_400, { error: FLAP_SETTLE_WORDS })
      .optional()
      .meta({
        description:
          'How long a flapping check must stay in one state before that state is told (each later change of the window settles so too): 60 to 86,400, at most the window (a longer one waits the window); default 300',
      }),
  })
  .meta({ id: 'PolicyInput' });
export type PolicyBody = z.output<typeof policyBody>;

const logsPage = pageQuery(200);

/** GET /v1/notify/logs: filters and the page. */
export const logsQuery = logsPage.extend({
  check_id: idSchema('chk').optional().meta({ description: 'Only the deliveries of this check' }),
  channel_id: idSchema('chn').optional().meta({ description: 'Only the deliveries of this channel' }),
  entity_id: idSchema('ent').optional().meta({ description: 'Only the deliveries about this entity' }),
  status: z.enum(DELIVERY_STATUSES).optional().meta({ description: 'Only deliveries in this status' }),
  batch_id: idSchema('dig').optional().meta({
    description: 'Only the digest and the alerts folded into it of this batch (a digest’s digest.batch_id)',
  }),
});

/** GET /v1/notify/channels: the page. */
export const channelsQuery = pageQuery(200);

/** /v1/notify/channels/{id}: a tenant channel. */
export const tenantChannelParams = z.object({ id: channelIdSchema });

/** PUT /v1/notify/channels/{id}: a new name, a new type and config (together), or both. */
export const tenantChannelUpdateBody = z
  .strictObject({
    name: channelNameSchema.optional(),
    channel_type: z.enum(CHANNEL_TYPES).optional().meta({ description: 'With config: a new destination' }),
    config: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'With channel_type: the whole new config; a secret sent back as ******** keeps the stored one (same type only)',
    }),
    template: messageTemplateSchema
      .nullable()
      .optional()
      .meta({ description: 'A new message template; null removes it; absent keeps it' }),
  })
  .meta({ id: 'TenantChannelUpdate' });
export type TenantChannelUpdateBody = z.output<typeof tenantChannelUpdateBody>;

/** POST /v1/notify/channels/{id}/test: the check the test message is about (default: the first attached). */
export const channelTestBody = z
  .strictObject({
    check_id: idSchema('chk').optional().meta({
      description:
        'The check the message names; default the first check the channel is attached to, else none (a test message about no check)',
    }),
  })
  .optional();
