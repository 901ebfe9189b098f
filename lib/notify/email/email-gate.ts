import { recipientsOf, withRecipients } from '../channels/registry.ts';
import type { ChannelRecord } from '../items/channel-items.ts';
import type { ChannelSenders, SendOutcome } from '../items/ports.ts';
import type { EmailRecipients } from './email-recipients.ts';

/**
 * The senders with the email channel's gate in front (issue 36): an email goes only to the
 * channel's confirmed recipients and only within the tenant's daily quota; otherwise nothing is
 * sent and the outcome says `skipped` with the reason (the delivery is logged skipped, not retried).
 * Channel types without recipients to confirm (their definition has no `recipients`) pass through untouched.
 */
export function gateEmail(senders: ChannelSenders, recipients: EmailRecipients): ChannelSenders {
  const admitted = async (channel: ChannelRecord): Promise<ChannelRecord | SendOutcome> => {
    const addresses = recipientsOf(channel);
    if (addresses === undefined) return channel;
    const admit = await recipients.admit(channel.tenant_id, addresses);
    if ('skipped' in admit) return { ok: false, status_code: null, error: null, skipped: admit.skipped };
    return withRecipients(channel, admit.to);
  };
  const digests = senders.sendDigest?.bind(senders);
  const isChannel = (value: ChannelRecord | SendOutcome): value is ChannelRecord => 'channel_type' in value;

  return {
    async send(channel, alert) {
      const gated = await admitted(channel);
      return isChannel(gated) ? senders.send(gated, alert) : gated;
    },
    ...(digests
      ? {
          async sendDigest(channel, digest) {
            const gated = await admitted(channel);
            return isChannel(gated) ? digests(gated, digest) : gated;
          },
        }
      : {}),
    // Acknowledgements go to providers that track incidents (never email): passed through.
    ...(senders.acknowledges ? { acknowledges: senders.acknowledges.bind(senders) } : {}),
    ...(senders.acknowledge ? { acknowledge: senders.acknowledge.bind(senders) } : {}),
    ...(senders.warnings ? { warnings: senders.warnings.bind(senders) } : {}),
    close: () => senders.close(),
  };
}
