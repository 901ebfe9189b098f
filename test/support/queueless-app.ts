import { createApp } from '../../lib/app.ts';
import { type Clock, systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { silentLogger } from '../../lib/platform/logger.ts';
import type { Table } from '../../lib/store/table.ts';
import { memoryJobQueue } from '../notify/support/memory-queue.ts';

/**
 * The local app on `table` (the default local config, a silent logger, the system clock unless
 * another is given), its notify and action queues in memory: they only collect what is enqueued.
 */
export function queuelessApp(table: Table, clock: Clock = systemClock) {
  return createApp({
    table,
    clock,
    logger: silentLogger,
    config: loadConfig('local', {}),
    notifyQueue: memoryJobQueue(),
    actionQueue: memoryJobQueue('action'),
  });
}
