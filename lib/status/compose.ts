import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import type { StreamSlots } from '../streams/stream-slots.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { statusRoutes } from './routes.ts';
import { createStatusService, type StatusDeps } from './status-service.ts';
import { statusStreamRoutes } from './stream-routes.ts';
import { createStatusStream, type StatusStreamSettings } from './stream-service.ts';

/**
 * The status feature as the app composes it: the status board, the live status stream and the
 * tenant's metrics as routes, and the stream's change consumer (it pushes transitions to the
 * process's open streams when they follow by push; absent when they poll).
 */
export function composeStatus(deps: {
  table: Table;
  clock: Clock;
  logger: Logger;
  cursors: CursorSeal;
  /** Where open streams hold their slots (shared with MCP's streams). */
  slots: StreamSlots;
  settings: StatusStreamSettings;
  /** The board's untold count (lib/notify's told words, given by the composition). */
  countUntold: StatusDeps['countUntold'];
}) {
  const { table, clock, logger, cursors } = deps;
  const statusStream = createStatusStream({ table, clock, logger, slots: deps.slots }, deps.settings);
  return {
    routes: [
      ...statusRoutes({
        statusService: createStatusService({ table, clock, cursors, countUntold: deps.countUntold }),
      }),
      ...statusStreamRoutes({ statusStream: statusStream.service }),
      ...metricsRoutes({ table }),
    ],
    consumer: statusStream.consumer,
    /** The same transitions, and incident changes, followed by other streams (MCP's subscriptions/listen and session streams). */
    follow: statusStream.follow,
  };
}
