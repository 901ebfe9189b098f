import type { CheckService } from '../checks/services.ts';
import type { Route } from '../http/types.ts';
import { notifyActionRoutes } from './api/action-routes.ts';
import { notifyRoutes, type Warned } from './api/routes.ts';
import { sharedChannelRoutes } from './api/tenant-channel-routes.ts';
import { createRouteService } from './channel-setup/route-service.ts';
import { templatePreviewRoutes } from './channel-setup/template-preview.ts';
import { createTenantChannelService } from './channel-setup/tenant-channel-service.ts';
import { composeNotifier, type NotifierDeps } from './compose-notifier.ts';
import { publicDeliveries, type ShowDeliveries } from './deliveries/delivery-responses.ts';
import { incidentAlerts } from './deliveries/incident-alerts.ts';
import { emailConfirmRoutes } from './email/email-confirm-routes.ts';
import { alertSettingsRoutes } from './grouping/settings-routes.ts';
import { createPolicyService } from './policy/policy-service.ts';
import { createSimulator } from './simulate/simulate.ts';

export type { PolicyService } from './policy/policy-service.ts';
export type { Simulator } from './simulate/simulate.ts';

export interface NotificationsDeps extends NotifierDeps {
  checkService: Pick<CheckService, 'requireCheck' | 'list'>;
  /** Whether the tenant has an escalation policy (lib/escalation's, handed in by the app): routes name them. */
  policyExists?: (tenantId: string, id: string) => Promise<boolean>;
}

/**
 * The notification feature as the app composes it: the notifier with its stores and senders, its
 * routes, and its part of incidents (the alerts a timeline shows, the acknowledgement hook).
 */
export function composeNotifications(deps: NotificationsDeps) {
  const { clock, config } = deps;
  const services = composeNotifier(deps);
  const { policies, channels, deliveries, notifier, recipients } = services;
  const showDeliveries: ShowDeliveries = (tenantId, records) =>
    publicDeliveries({ table: deps.table, channels }, tenantId, records);
  const egress = {
    egressAllow: config.egressAllow,
    runtime: config.runtime,
    natsPrefix: config.natsPrefix,
    resolve: deps.egress?.resolve,
  };
  const tenantChannels = createTenantChannelService({
    table: deps.table,
    checkService: deps.checkService,
    channels,
    actions: notifier,
    showDeliveries,
    clock,
    recipients,
    ...egress,
  });
  // What would be decided for each channel, through the flow's own steps (simulate.ts).
  const simulator = createSimulator({
    table: deps.table,
    clock,
    checkService: deps.checkService,
    policies,
    channels,
    recipients,
  });
  // A saved channel's answer says what this deployment lacks for it to send (email without SMTP).
  const warned: Warned = (channel) => ({
    ...channel,
    warnings: services.senders.warnings?.(channel.channel_type) ?? [],
  });
  // The routes' and the MCP tools' (silence_check) one policy service.
  const policyService = createPolicyService({
    checkService: deps.checkService,
    policies,
    channels,
    deliveries,
    showDeliveries,
    table: deps.table,
    clock,
    recipients,
    notifier,
    ...egress,
  });
  const routes: Route[] = [
    ...notifyRoutes({ tenantChannels, simulator, warned, policyService }),
    ...sharedChannelRoutes({
      tenantChannels,
      routes: createRouteService({ table: deps.table, clock, policyExists: deps.policyExists }),
      warned,
    }),
    ...notifyActionRoutes({ actions: notifier, showDeliveries }),
    ...alertSettingsRoutes({ table: deps.table }),
    ...emailConfirmRoutes({ recipients }),
    ...templatePreviewRoutes({ publicUrl: config.publicUrl }),
  ];
  return {
    ...services,
    simulator,
    policyService,
    routes,
    incidentAlerts: incidentAlerts(deps.table),
  };
}
