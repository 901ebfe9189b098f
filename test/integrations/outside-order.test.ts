import { describe, expect, it } from 'vitest';
import {
  createIngestService,
  type OutsideStateChange,
} from '../../lib/integrations/ingest/ingest-service.ts';
import { createFakeClock } from '../../lib/platform/clock.ts';
import { ConditionFailedError, type Table } from '../../lib/store/table.ts';
import { tableEngines } from '../support/table-engines.ts';
import { integrationRecord } from './support/integration-record.ts';

/**
 * The outside check's last word is the newest reading (issue 77, the truth invariant on outside
 * alerts): two requests on one entity race, the first reads its tally (down), the second resolves
 * the alert and records up, then the first records. Its recording holds on the tally it read, so
 * it is refused (`stale`), reads again and records up: an older reading never lands last. Without
 * the hold the entity would be left down with nothing open.
 */

const firing = (status: 'firing' | 'resolved') => ({
  version: '4',
  alerts: [
    {
      status,
      fingerprint: 'db-down',
      labels: { alertname: 'DbDown', service: 'orders-db', severity: 'critical' },
      annotations: { summary: 'orders-db is down' },
    },
  ],
});

describe.each(tableEngines())('outside state order on $engine', ({ make }) => {
  it('lands the newest reading last when a request overtakes another between its read and its record', async () => {
    const table: Table = make();
    const recorded: OutsideStateChange['state'][] = [];
    const answers: string[] = [];
    let overtake: (() => Promise<void>) | undefined;
    const service = createIngestService({
      table,
      clock: createFakeClock(Date.parse('2026-11-29T01:00:00Z')),
      entities: { get: async () => ({ id: 'ent_orders' }) },
      fetchCertificate: async () => '',
      confirmSubscription: async () => undefined,
      topicConfirmed: async () => undefined,
      acknowledgeIncident: async () => undefined,
      // The check's recording as lib/checks does it: the result's write holds on `holdsOn`.
      stateChanged: async (change) => {
        const cut = overtake;
        overtake = undefined;
        if (cut) await cut();
        try {
          await table.transact([change.holdsOn]);
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
          answers.push(`stale ${change.state}`);
          return 'stale';
        }
        recorded.push(change.state);
        answers.push(`recorded ${change.state}`);
        return 'recorded';
      },
    });
    const integration = integrationRecord({
      entity_rules: [{ match: { service: 'orders-db' }, entity: 'service/orders-db' }],
    });

    // The second request (the resolve) runs whole between the first's read and its record.
    overtake = async () => {
      await service.ingest(integration, firing('resolved'), {});
    };
    await service.ingest(integration, firing('firing'), {});

    expect(answers).toEqual(['recorded up', 'stale down', 'recorded up']);
    expect(recorded.at(-1)).toBe('up');
  });

  it('records the state again when a sender resends a request whose state was not recorded (a crash between the two)', async () => {
    const table: Table = make();
    const recorded: OutsideStateChange['state'][] = [];
    let crash = true;
    const service = createIngestService({
      table,
      clock: createFakeClock(Date.parse('2026-11-29T01:00:00Z')),
      entities: { get: async () => ({ id: 'ent_orders' }) },
      fetchCertificate: async () => '',
      confirmSubscription: async () => undefined,
      topicConfirmed: async () => undefined,
      acknowledgeIncident: async () => undefined,
      stateChanged: async (change) => {
        // The process dies after the alert's write, before its state's: the request is not answered.
        if (crash) throw new Error('killed');
        recorded.push(change.state);
        return 'recorded';
      },
    });
    const integration = integrationRecord({
      entity_rules: [{ match: { service: 'orders-db' }, entity: 'service/orders-db' }],
    });
    crash = false;
    await service.ingest(integration, firing('firing'), {});
    // The resolve is stored, then the crash: Alertmanager sends it again, which changes no alert.
    crash = true;
    await expect(service.ingest(integration, firing('resolved'), {})).rejects.toThrow('killed');
    crash = false;
    await service.ingest(integration, firing('resolved'), {});
    expect(recorded).toEqual(['down', 'up']);
  });
});
