import { z } from 'zod';

/**
 * Stored shapes of the notification items, parsed on every read, and the state-change event
 * (SPEC.md "Events"; DECISIONS.md "Notifications"). Public views and redaction: responses.ts.
 */

export const CHANNEL_TYPES = ['slack', 'discord', 'webhook', 'nats', 'ntfy'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'retrying', 'sent', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Attempts per delivery, the first included (SPEC.md limits: 3, waiting 1 s then 2 s). */
export const MAX_DELIVERY_ATTEMPTS = 3;

/** The policy defaults (SPEC.md "Notification policy"; suppression is DECISIONS.md's). */
export const POLICY_DEFAULTS = {
  cooldown_seconds: 300,
  notify_on_recovery: true,
  silenced: false,
  repeat_interval_seconds: 0,
  suppress_when_upstream_down: true,
} as const;

export const policySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  check_id: z.string(),
  cooldown_seconds: z.number().int(),
  notify_on_recovery: z.boolean(),
  silenced: z.boolean(),
  repeat_interval_seconds: z.number().int(),
  suppress_when_upstream_down: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Bumped by every write: a pending repeat of an older revision stops. */
  revision: z.number().int(),
});
export type PolicyRecord = z.infer<typeof policySchema>;

export const webhookConfigSchema = z.object({ url: z.string(), secret: z.string().optional() });
export const chatConfigSchema = z.object({ url: z.string() });
export const natsConfigSchema = z.object({ subject: z.string() });
export const ntfyConfigSchema = z.object({ url: z.string(), token: z.string().optional() });

/** A stored channel: its type and that type's config (validated at create: channel-config.ts). */
export const channelSchema = z
  .object({ id: z.string(), tenant_id: z.string(), check_id: z.string(), created_at: z.string() })
  .and(
    z.discriminatedUnion('channel_type', [
      z.object({ channel_type: z.literal('slack'), config: chatConfigSchema }),
      z.object({ channel_type: z.literal('discord'), config: chatConfigSchema }),
      z.object({ channel_type: z.literal('webhook'), config: webhookConfigSchema }),
      z.object({ channel_type: z.literal('nats'), config: natsConfigSchema }),
      z.object({ channel_type: z.literal('ntfy'), config: ntfyConfigSchema }),
    ]),
  );
export type ChannelRecord = z.infer<typeof channelSchema>;

/** SPEC.md's state-change event: exactly these eight fields, never renamed. */
export const stateChangeEventSchema = z.object({
  entity_id: z.string(),
  entity_name: z.string(),
  check_id: z.string(),
  tenant_id: z.string(),
  from_state: z.string(),
  to_state: z.string(),
  transition_id: z.string(),
  timestamp: z.string(),
});
export type StateChangeEvent = z.infer<typeof stateChangeEventSchema>;

/** True for a change to up out of down or degraded (DECISIONS.md's definition of a recovery). */
export const isRecovery = (event: Pick<StateChangeEvent, 'from_state' | 'to_state'>) =>
  event.to_state === 'up' && (event.from_state === 'down' || event.from_state === 'degraded');

/** One attempt of a delivery. */
export const attemptSchema = z.object({
  at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type Attempt = z.infer<typeof attemptSchema>;

/**
 * One delivery record per event (or repeat, or test) and channel (DECISIONS.md's field list). A
 * skip with no channel to name (the policy has none) has `channel_id` and `channel_type` null.
 */
export const deliverySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  channel_id: z.string().nullable(),
  check_id: z.string(),
  entity_id: z.string(),
  /** null for a test message. */
  transition_id: z.string().nullable(),
  channel_type: z.enum(CHANNEL_TYPES).nullable(),
  /** alert: the state change itself; repeat: a re-send while down; test: POST .../policy/test. */
  kind: z.enum(['alert', 'repeat', 'test']),
  status: z.enum(DELIVERY_STATUSES),
  /** Why nothing was sent (status skipped), e.g. "silenced" or "upstream api is down". */
  reason: z.string().nullable(),
  attempts: z.number().int(),
  attempt_log: z.array(attemptSchema),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The event this delivery carries (what each attempt sends). */
  event: stateChangeEventSchema,
});
export type DeliveryRecord = z.infer<typeof deliverySchema>;
