import type { ProviderChannel } from '../../providers/channel-use.ts';
import type { Provider } from '../../providers/provider.ts';
import { type ChannelDefinition, defineChannel } from './definition.ts';
import { describeDigest } from './digest-message.ts';
import { clip, messageFor } from './message.ts';

/**
 * The channel types of the messaging providers (lib/providers/registry.ts PROVIDERS): each
 * provider's `channel` made a channel definition. Its config rules are the provider's own; an
 * alert reaches it written (messageFor: the channel's template applied, the console link with
 * VIGIL_PUBLIC_URL), and a digest part described (describeDigest), so a provider knows no alert.
 */

/** A provider's channel as a channel definition, its config types kept. */
export function channelOf<C extends object, V extends object>(
  channel: ProviderChannel<C, V>,
): ChannelDefinition<C, V> {
  const { send, sendDigest, ...rules } = channel;
  return defineChannel<C, V>({
    ...rules,
    send: (deps, on, alert) =>
      send(deps, on.config, {
        message: messageFor(on, alert, deps.publicUrl),
        deliveryId: alert.deliveryId,
        titleWithName: (max) => {
          const name = clip(alert.entity.name || alert.event.entity_name, max);
          return messageFor(on, { ...alert, entity: { ...alert.entity, name } }, undefined).title;
        },
      }),
    sendDigest: (deps, on, digest) =>
      sendDigest(deps, on.config, { message: describeDigest(digest), deliveryId: digest.deliveryId }),
  });
}

/** The providers that serve alert channels, each to its channel definition, its config types kept. */
type ChannelsOf<P> = {
  [K in keyof P as P[K] extends { channel: object } ? K : never]: P[K] extends {
    channel: ProviderChannel<infer C, infer V>;
  }
    ? ChannelDefinition<C, V>
    : never;
};

/** Each provider's channel, by the provider's name, in the providers' order. */
export function providerChannels<P extends Record<string, Provider>>(providers: P): ChannelsOf<P> {
  return Object.fromEntries(
    Object.entries(providers).flatMap(([name, { channel }]) => (channel ? [[name, channelOf(channel)]] : [])),
  ) as ChannelsOf<P>;
}
