import { dispatchChanges } from '../events/dispatch.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqliteTable } from '../sqlite/sqlite-table.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';

const BATCH = 100;
const RETRY_MS = 1000;

/**
 * Feeds the sqlite outbox's Changes to the change-feed consumers, like DynamoDB Streams -> Lambda:
 * at least once, in commit order; a batch is removed from the outbox only after every consumer
 * accepted it.
 */
export function createChangePump(deps: { table: SqliteTable; consumers: ChangeConsumer[]; logger: Logger }) {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const drainOnce = async (): Promise<void> => {
    for (;;) {
      const rows = deps.table.readChanges(0, BATCH);
      const last = rows.at(-1);
      if (!last) return;
      await dispatchChanges(
        rows.map((r) => r.change),
        deps.consumers,
      );
      await deps.table.deleteChangesThrough(last.seq);
    }
  };

  /** Processes everything pending, including changes the consumers themselves write. */
  const drain = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await drainOnce();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const kick = () => {
    if (stopped) return;
    drain().catch((err: unknown) => {
      deps.logger.error('change feed consumer failed; retrying', { err });
      clearTimeout(retryTimer);
      retryTimer = setTimeout(kick, RETRY_MS);
    });
  };

  return {
    drain,
    /** Starts reacting to commits (and processes anything left from before a restart). */
    start() {
      unsubscribe = deps.table.onCommit(() => queueMicrotask(kick));
      kick();
    },
    /** Stops reacting and waits for a running batch. */
    async stop() {
      stopped = true;
      unsubscribe?.();
      clearTimeout(retryTimer);
      await running?.catch(() => undefined);
    },
  };
}
