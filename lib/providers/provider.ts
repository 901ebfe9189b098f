import type { ProviderChannel } from './channel-use.ts';
import type { PersonUse } from './person-use.ts';

/**
 * A messaging provider as its one file declares it (Grafana OnCall's messaging backends: one
 * registry serving alert channels and personal notifications): its uses, as data. `channel`, the
 * alert channel type it serves (./channel-use.ts); `people`, the kinds of contact method through
 * which it reaches a person (./person-use.ts), by kind. It serves either or both. One line of
 * ./registry.ts `PROVIDERS` each; lib/notify derives the channel types from that object and
 * lib/contacts the contact method kinds.
 */
export interface Provider {
  // biome-ignore lint/suspicious/noExplicitAny: each provider keeps its own config types; any only widens the check.
  channel?: ProviderChannel<any, any>;
  people?: Readonly<Record<string, PersonUse>>;
}
