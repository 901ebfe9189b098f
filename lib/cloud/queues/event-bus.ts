import {
  type EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import { stateChangeEventOf } from '../../checks/results.ts';
import type { StateChangeEvent } from '../../domain/states.ts';
import { chunks } from '../../platform/chunks.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChangeConsumer } from '../../store/change-feed.ts';

/** The `source` of every event Vigil puts on the bus (what a user's rule matches on). */
const EVENT_SOURCE = 'vigil';
/** The `detail-type` of a state-change event. */
const STATE_CHANGE_DETAIL_TYPE = 'Vigil State Change';
/** PutEvents takes at most 10 entries per call. */
const PUT_EVENTS_BATCH = 10;

/** Thrown when EventBridge refused entries; the stream redelivers the record and the batch is put again. */
export class EventBusPublishError extends Error {
  override name = 'EventBusPublishError';
}

/** One PutEvents entry carrying a state-change event as its detail (the webhook body without its `check_name`). */
function stateChangeEntry(event: StateChangeEvent, busName: string): PutEventsRequestEntry {
  return {
    EventBusName: busName,
    Source: EVENT_SOURCE,
    DetailType: STATE_CHANGE_DETAIL_TYPE,
    Detail: JSON.stringify(event),
    Time: new Date(event.timestamp),
  };
}

/**
 * A change-feed consumer that publishes every entity state-change event to an EventBridge bus, so
 * users route events with their own rules. Delivery is at least once: a refused entry throws, the
 * stream redelivers the record, and the entries that had been accepted are put a second time
 * (EventBridge does not deduplicate; a rule's target can key on `detail.transition_id`).
 */
export function createEventBusPublisher(deps: {
  client: EventBridgeClient;
  busName: string;
  logger: Logger;
}): ChangeConsumer {
  return async (changes) => {
    const events = changes.map(stateChangeEventOf).filter((e): e is StateChangeEvent => e !== undefined);
    for (const batch of chunks(events, PUT_EVENTS_BATCH)) {
      const out = await deps.client.send(
        new PutEventsCommand({ Entries: batch.map((event) => stateChangeEntry(event, deps.busName)) }),
      );
      const failed = out.FailedEntryCount ?? 0;
      if (failed > 0) {
        const first = (out.Entries ?? []).find((entry) => entry.ErrorCode);
        deps.logger.warn('EventBridge refused state-change events; the stream redelivers them', {
          bus: deps.busName,
          failed,
          error_code: first?.ErrorCode,
          error_message: first?.ErrorMessage,
        });
        throw new EventBusPublishError(
          `EventBridge refused ${failed} of ${batch.length} event(s): ${first?.ErrorCode ?? 'unknown error'}`,
        );
      }
      deps.logger.debug('state-change events published', { bus: deps.busName, count: batch.length });
    }
  };
}
