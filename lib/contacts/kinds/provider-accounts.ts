import { readTenantChannels } from '../../notify/records.ts';
import type { ProviderAccounts } from '../../providers/person-use.ts';
import type { PageDeps } from '../../store/paging.ts';

/**
 * Where a person's SMS, calls, Pushover and Telegram messages go out from: the account's own
 * provider accounts, as an admin configured them once for alerts, in shared channels
 * (docs/notifications.md). A contact method adds only the person's address: their number, their
 * Pushover user key, their chat with the bot. Each kind says which channel type lends it an account
 * and how its config reads as one (its provider's file, `sendingFrom`); the oldest shared channel of that type
 * whose config reads is the one used, so nothing here knows a kind or a type. Without one, that
 * kind of contact method cannot be added (400 naming what to add).
 */

/** Shared channels read at most (the tenant limit is 100; check channels share the list). */
const MAX_READ = 2_000;

/** The tenant's shared channels' configs, oldest first, by type. */
export async function providerAccounts(deps: PageDeps, tenantId: string): Promise<ProviderAccounts> {
  const configs = new Map<string, unknown[]>();
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await readTenantChannels(deps, tenantId, { limit: 200, cursor });
    // Newest first: each older one goes in front.
    for (const channel of page.channels) {
      if ('check_id' in channel) continue;
      configs.set(channel.channel_type, [channel.config, ...(configs.get(channel.channel_type) ?? [])]);
    }
    read += page.channels.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && read < MAX_READ);
  return {
    find(channelType, readAccount) {
      for (const config of configs.get(channelType) ?? []) {
        const account = readAccount(config);
        if (account !== undefined) return account;
      }
      return undefined;
    },
  };
}
