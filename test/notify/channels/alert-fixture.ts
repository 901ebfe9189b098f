import type { StateChangeEvent } from '../../../lib/domain/states/state-change-event.ts';
import type { ChannelConfigOf, ChannelType } from '../../../lib/notify/channels/registry.ts';
import { type ChannelRecord, channelSchema } from '../../../lib/notify/items/channel-items.ts';
import type { Alert } from '../../../lib/notify/items/ports.ts';

/** A state-change event of entity "Payments API" going down. */
export function sampleEvent(overrides: Partial<StateChangeEvent> = {}): StateChangeEvent {
  return {
    entity_id: 'ent_01JTEST',
    entity_name: 'Payments API',
    check_id: 'chk_01JTEST',
    tenant_id: 'tnt_01JTEST',
    from_state: 'up',
    to_state: 'down',
    transition_id: 'trn_01JTEST',
    timestamp: '2026-03-01T12:34:56.789Z',
    ...overrides,
  };
}

/** An alert carrying `sampleEvent`, with what human messages need. */
export function sampleAlert(overrides: Partial<Alert> = {}, event: Partial<StateChangeEvent> = {}): Alert {
  return {
    event: sampleEvent(event),
    kind: 'alert',
    deliveryId: 'dlv_01JTESTDELIVERY',
    entity: { id: 'ent_01JTEST', name: 'Payments API', blueprint_slug: 'service', slug: 'payments-api' },
    checkName: 'Payments health',
    checkLabel: 'GET https://payments.example.com/health',
    lastError: 'the endpoint answered 503',
    ...overrides,
  };
}

/** A stored channel record of the given type and config. */
export function channel<T extends ChannelType>(channel_type: T, config: ChannelConfigOf<T>): ChannelRecord {
  return channelSchema.parse({
    id: `chn_01J${channel_type.toUpperCase()}`,
    tenant_id: 'tnt_01JTEST',
    check_id: 'chk_01JTEST',
    created_at: '2026-03-01T00:00:00.000Z',
    channel_type,
    config,
  });
}
