import type { CheckService } from '../../checks/services.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { OPTIMISTIC_ATTEMPTS, RETRY, withRetries } from '../../store/retry.ts';
import type { Table } from '../../store/table.ts';
import {
  checkChannelDestination,
  parseChannelInput,
  type TenantChannelInput,
} from '../api-schemas/channel-config.ts';
import type { TenantChannelUpdateBody } from '../api-schemas/request-schemas.ts';
import { type ChannelView, publicChannel, REDACTED } from '../api-schemas/responses.ts';
import type { MessageTemplate } from '../channels/definition.ts';
import { channelDefinition } from '../channels/registry.ts';
import { takesTemplate, templateRefusal } from '../channels/template-types.ts';
import { showOne } from '../deliveries/delivery-responses.ts';
import { emailAddressesOf } from '../email/email-recipients.ts';
import {
  MAX_CHANNELS_PER_CHECK,
  MAX_TENANT_CHANNELS,
  type TenantChannelRecord,
} from '../items/channel-items.ts';
import { type ChannelStore, channelSeenFrom } from '../items/channel-store.ts';
import type { NotifyActions } from '../items/ports.ts';
import type { ChannelSetupDeps } from '../policy/channel-setup-deps.ts';
import type { Caller } from '../policy/policy-service.ts';
import { withoutChannel } from './route-service.ts';

export interface TenantChannelServiceDeps extends ChannelSetupDeps {
  table: Table;
  checkService: Pick<CheckService, 'requireCheck'>;
  channels: ChannelStore;
  actions: Pick<NotifyActions, 'sendTest' | 'sendChannelTest'>;
}

/** Refuses a template on a type that takes none: the one given (`given`), or the one kept on a new type. */
function templateFits(type: string, template: MessageTemplate | undefined, given: boolean): void {
  if (!template || takesTemplate(type)) return;
  throw ValidationError.field(
    'template',
    given
      ? templateRefusal(type)
      : `${templateRefusal(type).replace(/: leave the template out\.$/, '')}: remove this channel’s with "template": null.`,
  );
}

/**
 * Tenant channels (DECISIONS.md "Operations features (wave 3)"): created once, attached to many
 * checks by id, reached by routes. Validation and the SSRF guard are the per-check channels'
 * (channel-config.ts); another tenant's channel is 404.
 */
export function createTenantChannelService(deps: TenantChannelServiceDeps) {
  const { clock, channels } = deps;
  const view = async (caller: Caller, channel: TenantChannelRecord) => {
    const recipientStates = await deps.recipients.statesFor(caller.tenantId, emailAddressesOf([channel]));
    return { readOnly: caller.readOnly, natsPrefix: deps.natsPrefix, recipientStates } satisfies ChannelView;
  };
  const confirm = (caller: Caller, channel: TenantChannelRecord) =>
    deps.recipients.requestConfirmations(caller.tenantId, emailAddressesOf([channel]));
  const destinationOk = (input: Parameters<typeof checkChannelDestination>[0]) =>
    checkChannelDestination(input, { allow: deps.egressAllow, resolve: deps.resolve, runtime: deps.runtime });

  const require = async (tenantId: string, channelId: string): Promise<TenantChannelRecord> => {
    const channel = await channels.getShared(tenantId, channelId);
    if (!channel) throw new NotFoundError('channel');
    return channel;
  };

  /**
   * An update's config with each secret sent back as `********` replaced by the stored value, as
   * a check's header values are kept: only while the channel keeps its type (400 otherwise).
   */
  const keptSecrets = async (
    tenantId: string,
    channelId: string,
    type: string,
    config: Record<string, unknown>,
  ): Promise<Record<string, unknown>> => {
    const kept = channelDefinition(type).secrets.filter((key: string) => config[key] === REDACTED);
    if (kept.length === 0) return config;
    const stored = await require(tenantId, channelId);
    const values = stored.config as Record<string, unknown>;
    const merged = { ...config };
    for (const key of kept) {
      if (stored.channel_type !== type || typeof values[key] !== 'string')
        throw ValidationError.field(
          `config.${key}`,
          `${REDACTED} keeps a stored secret of this type only: give the value`,
        );
      merged[key] = values[key];
    }
    return merged;
  };

  return {
    async create(caller: Caller, input: TenantChannelInput) {
      await destinationOk(input);
      const now = isoTime(clock.now());
      const record: TenantChannelRecord = {
        ...input,
        id: newId('chn', clock.now()),
        tenant_id: caller.tenantId,
        created_at: now,
        updated_at: now,
      };
      if (!(await channels.createShared(record)))
        throw new LimitExceededError(`a tenant has at most ${MAX_TENANT_CHANNELS} tenant channels`);
      await confirm(caller, record);
      return publicChannel(record, await view(caller, record));
    },

    /** One tenant channel with the checks it is attached to. */
    async get(caller: Caller, channelId: string) {
      const channel = await require(caller.tenantId, channelId);
      const links = await channels.attachmentsOf(caller.tenantId, channelId);
      const shown = publicChannel(channel, await view(caller, channel));
      return { ...shown, attached_check_ids: links.map((l) => l.check_id) };
    },

    /** Renames it and/or gives it a new type and config (validated and guarded as at create). */
    async update(caller: Caller, channelId: string, body: TenantChannelUpdateBody) {
      if ((body.channel_type === undefined) !== (body.config === undefined))
        throw ValidationError.field(
          body.config === undefined ? 'config' : 'channel_type',
          'channel_type and config go together',
        );
      const destination =
        body.channel_type === undefined
          ? undefined
          : parseChannelInput({
              channel_type: body.channel_type,
              config: await keptSecrets(caller.tenantId, channelId, body.channel_type, body.config ?? {}),
            });
      if (destination) await destinationOk(destination);
      const stored = await withRetries(OPTIMISTIC_ATTEMPTS, 'the channel', async () => {
        const { template: kept, ...current } = await require(caller.tenantId, channelId);
        const template = body.template === undefined ? kept : (body.template ?? undefined);
        templateFits(
          destination?.channel_type ?? current.channel_type,
          template,
          body.template !== undefined,
        );
        const next: TenantChannelRecord = {
          ...current,
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(destination ?? {}),
          ...(template ? { template } : {}),
          updated_at: isoTime(clock.now()),
        };
        return (await channels.replaceShared(next, current.updated_at)) ? next : RETRY;
      });
      if (destination) await confirm(caller, stored);
      return publicChannel(stored, await view(caller, stored));
    },

    /** Deletes it: detached from every check and taken out of every route. */
    async remove(caller: Caller, channelId: string): Promise<void> {
      if (!(await channels.deleteShared(caller.tenantId, channelId))) throw new NotFoundError('channel');
      await withoutChannel(deps.table, caller.tenantId, channelId);
    },

    /** Attaches it to a check of the caller's tenant (counted among the check's channels). */
    async attach(caller: Caller, checkId: string, channelId: string) {
      const check = await deps.checkService.requireCheck(caller.tenantId, checkId);
      const channel = await require(caller.tenantId, channelId);
      const refusal = await channels.attach({
        tenant_id: caller.tenantId,
        check_id: check.id,
        channel_id: channelId,
        created_at: isoTime(clock.now()),
      });
      if (refusal === 'check-missing') throw new NotFoundError('check');
      if (refusal === 'channel-missing') throw new NotFoundError('channel');
      if (refusal === 'attached') throw new ConflictError('the channel is attached to this check already');
      if (refusal === 'limit')
        throw new LimitExceededError(`a check has at most ${MAX_CHANNELS_PER_CHECK} channels`);
      return publicChannel(channel, await view(caller, channel));
    },

    /**
     * Sends a test message to it now (one attempt, logged as the policy test's): about `checkId`,
     * else the first check it is attached to, else (attached to none) about no check at all.
     */
    async test(caller: Caller, channelId: string, checkId: string | undefined) {
      const channel = await require(caller.tenantId, channelId);
      const about = checkId ?? (await channels.attachmentsOf(caller.tenantId, channelId))[0]?.check_id;
      if (about === undefined)
        return showOne(
          deps.showDeliveries,
          caller.tenantId,
          await deps.actions.sendChannelTest(caller.tenantId, channel),
        );
      const check = await deps.checkService.requireCheck(caller.tenantId, about);
      const [record] = await deps.actions.sendTest(caller.tenantId, check.id, [
        channelSeenFrom(channel, check.id),
      ]);
      if (!record) throw new Error('the test message was not recorded');
      return showOne(deps.showDeliveries, caller.tenantId, record);
    },
  };
}

export type TenantChannelService = ReturnType<typeof createTenantChannelService>;
