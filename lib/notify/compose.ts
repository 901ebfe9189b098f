import type { TenantStore } from '../auth/tenant-store.ts';
import type { CheckService } from '../checks/check-service.ts';
import type { Route } from '../http/types.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { EgressSettings } from '../platform/egress.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { ChangeConsumer } from '../store/change-feed.ts';
import type { CursorSeal } from '../store/cursor-seal.ts';
import type { Table } from '../store/table.ts';
import { notifyActionRoutes } from './action-routes.ts';
import { createChannelStore } from './channel-store.ts';
import { createChannelSenders } from './channels/index.ts';
import { createNotifyConsumer } from './consumer.ts';
import { createDeliveryStore } from './delivery-store.ts';
import type { NotifyJob } from './jobs.ts';
import { createNotifier } from './notifier.ts';
import { createPolicyService } from './policy-service.ts';
import { createPolicyStore } from './policy-store.ts';
import { notifyRoutes } from './routes.ts';

export interface NotificationsDeps {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'runtime' | 'egressAllow' | 'natsUrls' | 'natsPrefix' | 'publicUrl'>;
  /** The notify queue: the local SQLite queue or SQS. */
  queue: JobQueue<NotifyJob>;
  tenants: TenantStore;
  checkService: Pick<CheckService, 'requireCheck'>;
  cursors: CursorSeal;
  /** Outbound TLS trust, name resolution (tests: a test CA, loopback receivers) and the process's pools. */
  egress?: EgressSettings | undefined;
}

/** The notification feature as the app composes it: stores, senders, the notifier, its routes and its change consumer. */
export function composeNotifications(deps: NotificationsDeps) {
  const { table, clock, config } = deps;
  const policies = createPolicyStore(table);
  const channels = createChannelStore(table, deps.cursors);
  const deliveries = createDeliveryStore(table, { clock, cursors: deps.cursors });
  const senders = createChannelSenders({
    egressAllow: config.egressAllow,
    runtime: config.runtime,
    natsUrls: config.natsUrls,
    natsPrefix: config.natsPrefix,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    ...deps.egress,
    logger: deps.logger,
    clock,
  });
  const notifier = createNotifier({
    table,
    clock,
    logger: deps.logger.child({ component: 'notifier' }),
    queue: deps.queue,
    senders,
    policies,
    channels,
    deliveries,
    tenants: deps.tenants,
  });
  const routes: Route[] = [
    ...notifyRoutes({
      policyService: createPolicyService({
        checkService: deps.checkService,
        policies,
        channels,
        deliveries,
        clock,
        egressAllow: config.egressAllow,
        runtime: config.runtime,
        natsPrefix: config.natsPrefix,
        resolve: deps.egress?.resolve,
      }),
    }),
    ...notifyActionRoutes({ actions: notifier }),
  ];
  const consumer: ChangeConsumer = createNotifyConsumer({ queue: deps.queue, logger: deps.logger });
  return { policies, channels, deliveries, senders, notifier, routes, consumer };
}
