import * as z from 'zod';
import { readTenantChannels } from '../../notify/records.ts';
import { type SmsAccount, smsAccountOf, type TwilioAccount } from '../../providers/sms.ts';
import type { PageDeps } from '../../store/paging.ts';

/**
 * Where a person's SMS, calls, Pushover and Telegram messages go out from: the account's own
 * provider accounts, as an admin configured them once for alerts, in shared channels
 * (docs/notifications.md). A contact method adds only the person's address: their number, their
 * Pushover user key, their chat with the bot. The oldest shared channel of the type is the one
 * used; without one, that kind of contact method cannot be added (400 naming what to add).
 */

const pushover = z.object({ app_token: z.string() });
const telegram = z.object({ bot_token: z.string() });

/** The provider accounts of one tenant (undefined: none configured). */
export interface ProviderAccounts {
  sms: SmsAccount | undefined;
  /** Calls need Twilio and a sending number (an alphanumeric sender or a messaging service cannot call). */
  voice: ({ provider: 'twilio' } & TwilioAccount) | undefined;
  pushover: z.output<typeof pushover> | undefined;
  telegram: z.output<typeof telegram> | undefined;
}

/** Shared channels read at most (the tenant limit is 100; check channels share the list). */
const MAX_READ = 2_000;

/** The tenant's provider accounts, each from its oldest shared channel that has one. */
export async function providerAccounts(deps: PageDeps, tenantId: string): Promise<ProviderAccounts> {
  const found: ProviderAccounts = {
    sms: undefined,
    voice: undefined,
    pushover: undefined,
    telegram: undefined,
  };
  let cursor: string | undefined;
  let read = 0;
  do {
    const page = await readTenantChannels(deps, tenantId, { limit: 200, cursor });
    // Newest first: a later (older) match replaces an earlier one.
    for (const channel of page.channels) {
      if ('check_id' in channel) continue;
      const config = channel.config;
      if (channel.channel_type === 'sms') {
        const account = smsAccountOf(config);
        if (!account) continue;
        found.sms = account;
        if (account.provider === 'twilio' && account.from?.startsWith('+')) found.voice = account;
      }
      if (channel.channel_type === 'pushover')
        found.pushover = pushover.safeParse(config).data ?? found.pushover;
      if (channel.channel_type === 'telegram')
        found.telegram = telegram.safeParse(config).data ?? found.telegram;
    }
    read += page.channels.length;
    cursor = page.nextCursor ?? undefined;
  } while (cursor && read < MAX_READ);
  return found;
}
