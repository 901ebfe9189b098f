import type { CheckService } from '../checks/check-service.ts';
import type { Route } from '../http/types.ts';
import { notifyActionRoutes } from './action-routes.ts';
import { composeNotifier, type NotifierDeps } from './compose-notifier.ts';
import { createPolicyService } from './policy-service.ts';
import { notifyRoutes } from './routes.ts';

export interface NotificationsDeps extends NotifierDeps {
  checkService: Pick<CheckService, 'requireCheck'>;
}

/** The notification feature as the app composes it: the notifier with its stores and senders, and its routes. */
export function composeNotifications(deps: NotificationsDeps) {
  const { clock, config } = deps;
  const services = composeNotifier(deps);
  const { policies, channels, deliveries, notifier } = services;
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
  return { ...services, routes };
}
