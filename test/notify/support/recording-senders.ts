import type { Alert, ChannelSenders } from '../../../lib/notify/items/ports.ts';

/** Channel senders that answer every send 200 and keep each alert sent in `sent`. */
export function recordingSenders(sent: Alert[]): ChannelSenders {
  const ok = { ok: true, status_code: 200, error: null } as const;
  return {
    send: async (_channel, alert) => {
      sent.push(alert);
      return ok;
    },
    sendDigest: async () => ok,
    acknowledges: () => false,
    acknowledge: async () => ok,
    close: async () => {},
  };
}
