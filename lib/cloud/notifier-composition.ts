import type { Context, SQSBatchResponse } from 'aws-lambda';
import { createTenantStore } from '../auth/tenant-store.ts';
import { composeNotifier } from '../notify/compose-notifier.ts';
import { createCursorSeal } from '../store/cursor-seal.ts';
import { loadCursorSecret } from '../store/cursor-secret.ts';
import type { CloudBase } from './cloud-base.ts';
import { createSqsBatchHandler } from './sqs-batch.ts';

/** The notifier function: the notifier, its stores and senders over the notify queue; no routes. */
export function composeNotifierFunction(base: CloudBase) {
  const { table, clock, logger, config } = base;
  const notifications = composeNotifier({
    table,
    clock,
    logger,
    config,
    queue: base.notifyQueue,
    tenants: createTenantStore(table, clock),
    cursors: createCursorSeal(() => loadCursorSecret(table)),
    egress: base.overrides.egress,
  });
  return {
    powertools: base.powertools,
    notifier: notifications.notifier,
    /**
     * The notifier Lambda's SQS batch handler; needs VIGIL_NOTIFY_QUEUE_URL, read at the first
     * invocation so that importing the function module (tests do) needs no queue.
     */
    notifierHandler() {
      let handler: ((event: unknown, context: Context) => Promise<SQSBatchResponse>) | undefined;
      return async (event: unknown, context: Context): Promise<SQSBatchResponse> => {
        handler ??= createSqsBatchHandler({
          queue: base.requireNotifyQueue('the notifier sets retry delays there'),
          handle: (job) => notifications.notifier.handle(job),
          logger,
        });
        return handler(event, context);
      };
    },
  };
}
