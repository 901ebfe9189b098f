import { defineRoute } from '../../http/define-route.ts';
import { answerOk } from '../../http/handlers.ts';
import { type AuthedRoute, created, noContent, ok } from '../../http/types.ts';
import { checkChannelBodySchema } from '../api-schemas/channel-config.ts';
import {
  channelParams,
  channelsQuery,
  checkIdParams,
  logsQuery,
  policyBody,
} from '../api-schemas/request-schemas.ts';
import { channelsPageSchema, publicChannelSchema, publicPolicySchema } from '../api-schemas/responses.ts';
import type { TenantChannelService } from '../channel-setup/tenant-channel-service.ts';
import { logsPageSchema } from '../deliveries/delivery-responses.ts';
import type { Caller, PolicyService } from '../policy/policy-service.ts';
import type { Simulator } from '../simulate/simulate.ts';
import { simulateBody, simulateResponse } from '../simulate/simulate-schemas.ts';

/** A saved channel's answer with `warnings`: what this deployment lacks for it to send. */
export type Warned = <T extends { channel_type: string }>(channel: T) => T & { warnings: string[] };

export interface NotifyRouteDeps {
  policyService: PolicyService;
  tenantChannels: Pick<TenantChannelService, 'attach'>;
  simulator: Simulator;
  warned: Warned;
}

const tag = 'Notifications';

const callerOf = (principal: { tenantId: string; readOnly: boolean }): Caller => ({
  tenantId: principal.tenantId,
  readOnly: principal.readOnly,
});

/** The notification policy routes of a check, the tenant's channels and its delivery log. */
export function notifyRoutes(deps: NotifyRouteDeps): AuthedRoute[] {
  const { policyService: policies } = deps;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/checks/{check_id}/policy',
      auth: 'key',
      operationId: 'getNotificationPolicy',
      tag,
      summary: 'The check’s notification policy with its channels; the defaults (id null) when none was set',
      schemas: { params: checkIdParams, responses: { 200: publicPolicySchema } },
      handler: async ({ principal, params }) => ok(await policies.get(callerOf(principal), params.check_id)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{check_id}/policy',
      auth: 'key',
      operationId: 'putNotificationPolicy',
      tag,
      summary: 'Create (201) or update (200) the check’s policy; absent fields keep their value or default',
      schemas: {
        params: checkIdParams,
        body: policyBody.default({}),
        responses: { 200: publicPolicySchema, 201: publicPolicySchema },
        errors: ['CONFLICT'],
      },
      handler: async ({ principal, params, body }) => {
        const result = await policies.upsert(callerOf(principal), params.check_id, body);
        return result.created ? created(result.policy) : ok(result.policy);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/checks/{check_id}/policy/channels',
      auth: 'key',
      operationId: 'createNotificationChannel',
      tag,
      summary:
        'Add a channel, or attach a tenant channel with {channel_id} (at most 10 per check); URLs must pass the SSRF guard',
      schemas: {
        params: checkIdParams,
        body: checkChannelBodySchema,
        responses: { 201: publicChannelSchema },
        errors: ['LIMIT_EXCEEDED', 'CONFLICT'],
      },
      handler: async ({ principal, params, body }) =>
        created(
          deps.warned(
            'channel_id' in body
              ? await deps.tenantChannels.attach(callerOf(principal), params.check_id, body.channel_id)
              : await policies.addChannel(callerOf(principal), params.check_id, body),
          ),
        ),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/checks/{check_id}/policy/channels/{channel_id}',
      auth: 'key',
      operationId: 'deleteNotificationChannel',
      tag,
      summary: 'Remove a channel from the check’s policy (a tenant channel is detached, not deleted)',
      schemas: { params: channelParams, responses: { 204: null } },
      handler: async ({ principal, params }) => {
        await policies.removeChannel(callerOf(principal), params.check_id, params.channel_id);
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/notify/channels',
      auth: 'key',
      operationId: 'listNotificationChannels',
      tag,
      summary:
        'Channels across all checks and the tenant channels (check_id null), newest first: {channels, next_cursor} (limit 1-200, default 50)',
      schemas: { query: channelsQuery, responses: { 200: channelsPageSchema } },
      handler: async ({ principal, query }) => ok(await policies.listChannels(callerOf(principal), query)),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/notify/logs',
      auth: 'key',
      operationId: 'listNotificationLogs',
      tag,
      summary:
        'Delivery records, newest first, with the names of their entity, check and shared channel: {logs, next_cursor}; filters check_id, channel_id, entity_id, status, batch_id (a filtered page may hold fewer than limit)',
      schemas: { query: logsQuery, responses: { 200: logsPageSchema } },
      handler: async ({ principal, query }) => ok(await policies.listLogs(callerOf(principal), query)),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/notify/simulate',
      auth: 'key',
      readsOnly: true,
      operationId: 'simulateNotification',
      tag,
      summary:
        'Why would I (not) be paged: the decision per channel if the entity changed to to_state now, without sending or writing anything',
      schemas: { body: simulateBody, responses: { 200: simulateResponse }, errors: ['NOT_FOUND'] },
      handler: answerOk((tenantId, { body }) => deps.simulator.simulate(tenantId, body)),
    }),
  ];
}
