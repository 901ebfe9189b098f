import { describe, expect, it } from 'vitest';
import type { PageLinks } from '../../lib/escalation/compose-paging.ts';
import { pageMessage } from '../../lib/escalation/page-message.ts';
import type { IncidentRecord } from '../../lib/incidents/incident-items.ts';

/** A page's message: the incident, the state, the step, the console's link and the ack links the port gives. */

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
const subject = { incident, state: 'down', policyName: 'Ladder', step: 1, round: 1 };

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
});
