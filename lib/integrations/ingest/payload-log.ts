import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Table } from '../../store/table.ts';
import type { IntegrationRecord } from '../items/integration-items.ts';
import { listPayloads, logPayload, type PayloadRecord, payloadExcerpt } from '../items/payload-log-items.ts';

/**
 * The payload log of each integration (GET /v1/integrations/{id}/payloads): every request that named
 * it, with what it became. Writing the line comes after the request's alerts are stored and never
 * fails the request: a store that refuses the line is logged, and the sender still gets its 202.
 */
export function createPayloadLog(deps: { table: Table; clock: Clock; logger: Logger }) {
  return {
    async log(
      integration: IntegrationRecord,
      raw: Buffer,
      outcome: PayloadRecord['outcome'],
      detail: string,
    ) {
      try {
        await logPayload(deps.table, {
          integration_id: integration.id,
          received_at: isoTime(deps.clock.now()),
          outcome,
          detail: detail.slice(0, 1000),
          ...payloadExcerpt(raw),
        });
      } catch (error) {
        deps.logger.warn('an integration’s payload log line was not written', {
          integration_id: integration.id,
          error,
        });
      }
    },
    list: (integration: IntegrationRecord) => listPayloads(deps.table, integration.id),
  };
}

export type PayloadLog = ReturnType<typeof createPayloadLog>;
