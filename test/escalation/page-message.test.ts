import { describe, expect, it } from 'vitest';
import type { PageLinks } from '../../lib/escalation/compose-paging.ts';
import { pageMessage, resolutionMessage } from '../../lib/escalation/page-message.ts';
import type { IncidentRecord } from '../../lib/incidents/incident-items.ts';

/**
 * A page's message: the incident, the state, why, its times in the person's zone, the step, the
 * console's link and the ack links the port gives; and the message that tells them it is over.
 */

const incident: IncidentRecord = {
  id: 'inc_01JABCDEFGHJKMNPQRSTVWXYZ0',
  tenant_id: 'tnt_1',
  entity_id: 'ent_1',
  entity_name: 'Shop API',
  state: 'open',
  opened_at: '2026-04-06T09:00:00.000Z',
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  in_maintenance: false,
  opening_transition_id: 'trn_01JABCDEFGHJKMNPQRSTVWXYZ0',
  check_id: 'chk_1',
  resolving_transition_id: null,
  note_count: 0,
};
const subject = {
  incident,
  state: 'down',
  reason: 'expected status 200, got 503',
  timeZone: 'Europe/Berlin',
  policyName: 'Ladder',
  step: 1,
  round: 1,
};

describe('a page’s message', () => {
  it('names the entity, its state, the incident, the step and the console’s page', async () => {
    const message = await pageMessage(subject, 'usr_1', {
      publicUrl: 'https://vigil.example.com',
      deliveryId: 'd1',
    });
    expect(message.subject).toBe('[Vigil] Shop API is down: page from "Ladder", step 2 (round 2)');
    expect(message.text).toContain(`Incident ${incident.id}; escalation policy "Ladder", step 2 (round 2).`);
    expect(message.text).toContain(`Open: https://vigil.example.com/incidents/${incident.id}`);
    expect(message.text).not.toContain('Acknowledge:');
    expect(message.speech).toContain('Shop API is down');
    expect(message.deliveryId).toBe('d1');
  });

  it('carries the acknowledge and resolve links the port gives for the person', async () => {
    const asked: string[] = [];
    const links: PageLinks = async (inc, userId) => {
      asked.push(`${inc.id}:${userId}`);
      return {
        acknowledge: `https://vigil.example.com/a/ack-${userId}`,
        resolve: 'https://vigil.example.com/a/res',
      };
    };
    const message = await pageMessage(subject, 'usr_2', { publicUrl: undefined, links, deliveryId: 'd2' });
    expect(asked).toEqual([`${incident.id}:usr_2`]);
    expect(message.text).toContain('Acknowledge: https://vigil.example.com/a/ack-usr_2');
    expect(message.text).toContain('Resolve: https://vigil.example.com/a/res');
    expect(message.text).not.toContain('Open:');
  });

  it('says why the entity is failing and when it began, in the person’s zone, not as a raw ISO time', async () => {
    const message = await pageMessage(subject, 'usr_1', { publicUrl: undefined, deliveryId: 'd3' });
    // 09:00 UTC on 6 April is 11:00 in Berlin (summer time).
    expect(message.text).toContain('Shop API is down since 6 Apr 2026, 11:00 (Europe/Berlin)');
    expect(message.text).toContain('Why: expected status 200, got 503');
    expect(message.text).not.toContain(incident.opened_at);
    const inNewYork = await pageMessage({ ...subject, timeZone: 'America/New_York', reason: null }, 'usr_1', {
      publicUrl: undefined,
      deliveryId: 'd4',
    });
    expect(inNewYork.text).toContain('since 6 Apr 2026, 05:00 (America/New_York)');
    expect(inNewYork.text).not.toContain('Why:');
  });

  it('tells of the resolution: the entity, when and how it ended, in the person’s zone', () => {
    const resolved = {
      ...incident,
      state: 'resolved' as const,
      resolved_at: '2026-04-06T09:42:00.000Z',
      resolution: 'up' as const,
    };
    const message = resolutionMessage(resolved, 'Europe/Berlin', {
      publicUrl: 'https://vigil.example.com',
      deliveryId: 'r1',
    });
    expect(message.subject).toBe('[Vigil] Resolved: Shop API');
    expect(message.text).toContain('resolved since 6 Apr 2026, 11:42 (Europe/Berlin): it is up again');
    expect(message.text).toContain(`Open: https://vigil.example.com/incidents/${incident.id}`);
    expect(
      resolutionMessage({ ...resolved, resolution: 'manual' }, 'UTC', {
        publicUrl: undefined,
        deliveryId: 'r2',
      }).text,
    ).toContain('resolved since 6 Apr 2026, 09:42 (UTC): it was resolved by hand');
  });
});
