/**
 * The notification channel types (SPEC.md "Notifications"), in the order the API document lists
 * them. Each has its definition in lib/notify/channels/registry.ts, which the compiler keeps equal
 * to this list both ways; it lives here because the item owners (channel and delivery items)
 * import no feature code.
 */
export const CHANNEL_TYPES = ['slack', 'discord', 'webhook', 'nats', 'ntfy', 'email'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];
