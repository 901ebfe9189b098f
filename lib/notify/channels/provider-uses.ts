import type { ChannelDefinition } from './definition.ts';
import type { ContactKindDefinition } from './person-use.ts';

/**
 * What a messaging provider serves (Grafana OnCall's messaging backends: one registry serving alert
 * channels and personal notifications): `channel`, an alert channel type (./definition.ts);
 * `people`, the kinds of contact method through which it reaches a person (./person-use.ts), by
 * kind. One line of ./registry.ts `PROVIDERS` each; the channel types and the contact method kinds
 * are derived from that one object by the two functions below.
 */
export interface ProviderUses {
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own config types; any only widens the check.
  channel?: ChannelDefinition<any, any>;
  people?: Readonly<Record<string, ContactKindDefinition>>;
}

/** The providers that serve alert channels, each to its channel definition, its type kept. */
type ChannelsOf<P> = {
  [K in keyof P as P[K] extends { channel: object } ? K : never]: P[K] extends { channel: infer C }
    ? C
    : never;
};

/** The kinds of contact method the providers serve. */
type KindsOf<P> = { [K in keyof P]: P[K] extends { people: infer M } ? keyof M & string : never }[keyof P];

/** Each provider's channel, by the provider's name, in the providers' order. */
export function channelsOf<P extends Record<string, ProviderUses>>(providers: P): ChannelsOf<P> {
  return Object.fromEntries(
    Object.entries(providers).flatMap(([name, uses]) => (uses.channel ? [[name, uses.channel]] : [])),
  ) as ChannelsOf<P>;
}

/** Every provider's people uses, by kind, in the providers' order; a kind two providers serve throws. */
export function peopleOf<P extends Record<string, ProviderUses>>(
  providers: P,
): Record<KindsOf<P>, ContactKindDefinition> {
  const people = new Map<string, ContactKindDefinition>();
  for (const [name, uses] of Object.entries(providers)) {
    for (const [kind, use] of Object.entries(uses.people ?? {})) {
      if (people.has(kind))
        throw new Error(`the contact method kind ${kind} is served twice (again by ${name})`);
      people.set(kind, use);
    }
  }
  return Object.fromEntries(people) as Record<KindsOf<P>, ContactKindDefinition>;
}
