import { describe, expect, it } from 'vitest';
import { describeAlert } from '../../lib/notify/channels/message.ts';
import type { Alert } from '../../lib/notify/items/ports.ts';

/** Issue 35, "also failing": the checks failing beside the alert's are named in the message. */

describe('describeAlert names the checks also failing', () => {
  it('adds one fact line "Also failing: a, b"', () => {
    const alert: Alert = {
      event: {
        entity_id: 'ent_1',
        entity_name: 'Orders',
        check_id: 'chk_1',
        tenant_id: 'tnt_1',
        from_state: 'up',
        to_state: 'down',
        transition_id: 'trn_1',
        timestamp: '2026-11-24T05:00:00.000Z',
      },
      kind: 'repeat',
      deliveryId: 'dlv_1',
      entity: { id: 'ent_1', name: 'Orders', blueprint_slug: 'service', slug: 'orders' },
      checkName: 'HTTP',
      checkLabel: 'GET https://orders.example.com',
      lastError: null,
      alsoFailing: ['Queue depth', 'TLS'],
    };
    const facts = describeAlert(alert, undefined).facts;
    expect(facts).toContainEqual({ label: 'Also failing', value: 'Queue depth, TLS' });
    expect(
      describeAlert({ ...alert, alsoFailing: undefined }, undefined).facts.map((f) => f.label),
    ).not.toContain('Also failing');
  });
});
