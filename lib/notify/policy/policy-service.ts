import { checkNameOf } from '../../check-types/check-name.ts';
import { checkDefinitionsById } from '../../checks/check-items.ts';
import type { CheckService } from '../../checks/services.ts';
import { isoTime } from '../../platform/clock.ts';
import { LimitExceededError, NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { PageRequest } from '../../store/paging.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import type { Table } from '../../store/table.ts';
import { type ChannelInput, checkChannelDestination } from '../api-schemas/channel-config.ts';
import type { PolicyBody } from '../api-schemas/request-schemas.ts';
import { type ChannelView, publicChannel, publicPolicy } from '../api-schemas/responses.ts';
import { emailAddressesOf } from '../email/email-recipients.ts';
import {
  type ChannelRecord,
  MAX_CHANNELS_PER_CHECK,
  type TenantChannelRecord,
} from '../items/channel-items.ts';
import type { ChannelStore } from '../items/channel-store.ts';
import type { DeliveryListRequest } from '../items/delivery-items.ts';
import type { DeliveryStore } from '../items/delivery-store.ts';
import { POLICY_DEFAULTS, type PolicyRecord } from '../items/policy-items.ts';
import type { PolicyStore } from '../items/policy-store.ts';
import type { NotifyActions } from '../items/ports.ts';
import { routesReaching } from '../routing/check-routes.ts';
import type { ChannelSetupDeps } from './channel-setup-deps.ts';

export interface PolicyServiceDeps extends ChannelSetupDeps {
  checkService: Pick<CheckService, 'requireCheck'>;
  policies: PolicyStore;
  channels: ChannelStore;
  deliveries: DeliveryStore;
  /** The routes reaching a check (check-routes.ts) are read from it. */
  table: Table;
  /** The notifier: a silence lifted re-judges the check's entity (what it held is told if still true). */
  notifier: Pick<NotifyActions, 'rejudge'>;
}

/** Who asks: the tenant, and whether its key is read-only (channel URLs are then redacted). */
export interface Caller {
  tenantId: string;
  readOnly: boolean;
}

/**
 * Notification policies and channels of a check, the tenant's channels and its delivery log. Every
 * call under a check first resolves the check in the caller's tenant (404 otherwise).
 */
export function createPolicyService(deps: PolicyServiceDeps) {
  const { clock } = deps;
  const view = async (caller: Caller, channels: readonly (ChannelRecord | TenantChannelRecord)[]) => {
    const addresses = emailAddressesOf(channels);
    const recipientStates = await deps.recipients.statesFor(caller.tenantId, addresses);
    return { readOnly: caller.readOnly, natsPrefix: deps.natsPrefix, recipientStates } satisfies ChannelView;
  };

  const policyView = async (
    caller: Caller,
    check: { id: string; entity_id: string; blueprint_slug: string },
    policy: PolicyRecord | undefined,
  ) => {
    const [{ own, attached }, routes] = await Promise.all([
      deps.channels.listApart(check.id),
      routesReaching(deps, caller.tenantId, { id: check.entity_id, blueprint_slug: check.blueprint_slug }),
    ]);
    const channels = [...own, ...attached];
    return publicPolicy(check.id, policy, channels, await view(caller, channels), routes);
  };

  return {
    /** The check's policy with its channels; the defaults (id null) while none was set. */
    async get(caller: Caller, checkId: string) {
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      return policyView(caller, check, await deps.policies.get(check.id));
    },

    /** Creates or updates the check's policy: given fields change, absent ones keep their value. */
    async upsert(caller: Caller, checkId: string, body: PolicyBody) {
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const stored = await withRetries(OPTIMISTIC_ATTEMPTS, 'the policy', async () => {
        const current = await deps.policies.get(check.id);
        const now = isoTime(clock.now());
        const base: PolicyRecord = current ?? {
          id: newId('pol', clock.now()),
          tenant_id: caller.tenantId,
          check_id: check.id,
          ...POLICY_DEFAULTS,
          created_at: now,
          updated_at: now,
          revision: 0,
        };
        const written = await deps.policies.put({ ...base, ...body, updated_at: now });
        return written ? { policy: written, created: current === undefined, lifted: base.silenced } : RETRY;
      });
      // A silence lifted while the entity is away from up: its channels hear the state now, as
      // Alertmanager notifies an alert still firing when its silence ends.
      if (stored.lifted && !stored.policy.silenced)
        await deps.notifier.rejudge(caller.tenantId, check.entity_id, 'silence lifted');
      return { created: stored.created, policy: await policyView(caller, check, stored.policy) };
    },

    /** Adds a channel to the check's policy after the SSRF guard accepted its URL. */
    async addChannel(caller: Caller, checkId: string, input: ChannelInput) {
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      await checkChannelDestination(input, {
        allow: deps.egressAllow,
        resolve: deps.resolve,
        runtime: deps.runtime,
      });
      const record: ChannelRecord = {
        id: newId('chn', clock.now()),
        tenant_id: caller.tenantId,
        check_id: check.id,
        created_at: isoTime(clock.now()),
        ...input,
      };
      const refusal = await deps.channels.create(record);
      if (refusal === 'check-missing') throw new NotFoundError('check');
      if (refusal === 'limit')
        throw new LimitExceededError(`a check has at most ${MAX_CHANNELS_PER_CHECK} channels`);
      await deps.recipients.requestConfirmations(caller.tenantId, emailAddressesOf([record]));
      return publicChannel(record, await view(caller, [record]));
    },

    /** Removes one channel of the check, or detaches a tenant channel from it (404 when neither). */
    async removeChannel(caller: Caller, checkId: string, channelId: string): Promise<void> {
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      if (
        !(await deps.channels.remove(check.id, channelId)) &&
        !(await deps.channels.detach(check.id, channelId))
      )
        throw new NotFoundError('channel');
    },

    /** A page of the tenant's channels across its checks, newest first. */
    async listChannels(caller: Caller, page: PageRequest) {
      const read = await deps.channels.listForTenant(caller.tenantId, page);
      const checkIds = read.channels.flatMap((channel) => ('check_id' in channel ? [channel.check_id] : []));
      const [shown, checks] = await Promise.all([
        view(caller, read.channels),
        checkDefinitionsById(deps.table, caller.tenantId, [...new Set(checkIds)]),
      ]);
      const names = new Map(checks.map((check) => [check.id, checkNameOf(check)]));
      return {
        channels: read.channels.map((channel) => {
          const name = 'check_id' in channel ? names.get(channel.check_id) : undefined;
          return { ...publicChannel(channel, shown), ...(name === undefined ? {} : { check_name: name }) };
        }),
        next_cursor: read.nextCursor,
      };
    },

    /** A page of the tenant's delivery log, newest first, with its filters. */
    async listLogs(caller: Caller, request: DeliveryListRequest) {
      const read = await deps.deliveries.list(caller.tenantId, request);
      return {
        logs: await deps.showDeliveries(caller.tenantId, read.deliveries),
        next_cursor: read.nextCursor,
      };
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
