/** The notification channel types (SPEC.md "Notifications"). */
export const CHANNEL_TYPES = ['slack', 'discord', 'webhook', 'nats', 'ntfy', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
