import type { ChannelOf, ChannelSendDeps, SmsTransport } from '../../../lib/notify/channels/definition.ts';
import type { Digest } from '../../../lib/notify/items/ports.ts';
import { systemClock } from '../../../lib/platform/clock.ts';
import type { ProviderServer } from '../../support/receivers/provider-host.ts';
import { sampleEvent } from './alert-fixture.ts';

/** What a definition's sender gets in these tests: the receiver's egress, loopback allowed, no email or NATS. */
export function sendDeps(server: ProviderServer | undefined, sms?: SmsTransport): ChannelSendDeps {
  return {
    http: { egressAllow: ['127.0.0.0/8'], ...(server?.egress ?? {}) },
    publicUrl: 'https://vigil.example.com',
    email: { transport: undefined, from: undefined },
    nats: {
      publish: async () => ({ ok: false, status_code: null, error: 'no NATS in this test' }),
      close: async () => undefined,
    },
    natsPrefix: 'vigil',
    runtime: 'local',
    clock: systemClock,
    sms,
  };
}

/** A stored channel of a definition, with its config. */
export function channelOf<C>(config: C): ChannelOf<C> {
  return { id: 'chn_01JPHONE', tenant_id: 'tnt_01JTEST', check_id: 'chk_01JTEST', config };
}

/** A digest of `count` changes to down, with names that need escaping. */
export function sampleDigest(count: number, down = true): Digest {
  const events = Array.from({ length: count }, (_, i) => ({
    event: sampleEvent({
      entity_name: `Web node ${i + 1} (rack_${i % 7}) *α*`,
      transition_id: `trn_${i}`,
      ...(down ? {} : { from_state: 'down' as const, to_state: 'up' as const }),
    }),
    kind: down ? ('alert' as const) : ('recovery' as const),
  }));
  return {
    deliveryId: 'dlv_01JDIGEST',
    group: { by: 'blueprint', key: 'host', name: 'host' },
    counts: { down: down ? count : 0, degraded: 0, up: down ? 0 : count },
    events,
    part: 1,
    parts: 1,
  };
}
