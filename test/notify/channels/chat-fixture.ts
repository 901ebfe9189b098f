import type { ChannelOf, ChannelSendDeps } from '../../../lib/notify/channels/definition.ts';
import type { Digest } from '../../../lib/notify/items/ports.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { sampleAlert, sampleEvent } from './alert-fixture.ts';

/**
 * What the chat channels' tests share: send deps reaching 127.0.0.1 through the SSRF guard's
 * allow-list with the test CA, a stored channel of any config, and the alerts every type is sent.
 */

export function chatDeps(caCert: string, publicUrl = 'https://vigil.example.com/'): ChannelSendDeps {
  return {
    http: { egressAllow: ['127.0.0.0/8'], ca: [caCert] },
    publicUrl,
    // The chat senders use http and publicUrl only; email and NATS are never reached.
    email: { transport: undefined, from: undefined },
    nats: {
      publish: async () => ({ ok: false, status_code: null, error: 'not used' }),
      close: async () => {},
    },
    natsPrefix: 'vigil',
    runtime: 'local',
    clock: createFakeClock(),
  };
}

export function stored<C>(config: C): ChannelOf<C> {
  return { id: 'chn_01JCHAT', tenant_id: 'tnt_01JTEST', check_id: 'chk_01JTEST', config };
}

/** A name that is markup in every chat dialect: a link, emphasis, HTML, and mentions of everyone. */
export const HOSTILE_NAME =
  '[pay here](https://evil.example) *now* <b>x</b> <users/all> @channel @room <!here>';

export const alerts = {
  down: () => sampleAlert(),
  recovery: () =>
    sampleAlert({ deliveryId: 'dlv_01JRECOVERY', lastError: null }, { from_state: 'down', to_state: 'up' }),
  escalation: () =>
    sampleAlert({
      kind: 'escalation',
      deliveryId: 'dlv_01JESCALATE',
      unacknowledgedMinutes: 15,
      unacknowledgedSeconds: 900,
    }),
  hostile: () =>
    sampleAlert(
      {
        deliveryId: 'dlv_01JHOSTILE',
        entity: { id: 'ent_01JTEST', name: HOSTILE_NAME, blueprint_slug: 'service', slug: 'payments-api' },
      },
      { entity_name: HOSTILE_NAME },
    ),
};

/** 1,000 events with long, partly non-ASCII names: more than any chat message holds. */
export function bigDigest(): Digest {
  const events = Array.from({ length: 1000 }, (_, i) => ({
    event: sampleEvent({
      entity_id: `ent_${String(i).padStart(4, '0')}`,
      entity_name: `Web node ${i + 1} — Zürich rack ${'ü'.repeat(i % 7)} <b>& *x*`,
      transition_id: `trn_${i}`,
    }),
    kind: 'alert' as const,
  }));
  return {
    deliveryId: 'dlv_01JDIGEST',
    group: { by: 'blueprint', key: 'host', name: 'host' },
    counts: { down: 1000, degraded: 0, up: 0 },
    events,
    part: 1,
    parts: 1,
  };
}
