import { redactedSummary } from '../../audit/describe-write.ts';
import type { RecordAuditEvent } from '../../audit/event-audit.ts';
import type { TenantStore } from '../../auth/tenants.ts';
import type { BlueprintService, EntityService } from '../../catalog/services.ts';
import { PUSH_SLUG_PATTERN } from '../../check-types/check-config.ts';
import { createCheckBody } from '../../checks/check-input.ts';
import type { CheckService } from '../../checks/services.ts';
import type { RouteContext } from '../../http/types.ts';
import type { Clock } from '../../platform/clock.ts';
import {
  AccountDisabledError,
  ConflictError,
  NotFoundError,
  RateLimitedError,
} from '../../platform/errors.ts';
import { ConditionFailedError, type Table } from '../../store/table.ts';
import type { PingTarget, SlugResolver } from '../pings/ping-target.ts';
import { UnknownPingTokenError, UnknownSlugError } from '../tokens/token-service.ts';
import type { PingKeyService } from './ping-key-service.ts';
import { SlugTakenError } from './slug-claims.ts';
import { AUTO_CREATE_PER_MINUTE, autoCreateCountedOp, getSlug } from './slug-items.ts';

/**
 * Where `?create=1` puts the checks it makes (docs/heartbeats.md "Slug URLs"): the entity
 * `heartbeats` of the blueprint `heartbeats`, each created on first use if absent.
 */
const AUTO_CREATE_HOME = { blueprint: 'heartbeats', entity: 'heartbeats' } as const;

/** Healthchecks' defaults for an auto-provisioned check: a period of a day and a grace of an hour. */
const AUTO_CREATE_PERIOD_SECONDS = 86_400;
const AUTO_CREATE_GRACE_SECONDS = 3_600;
/** One /fail or one missed deadline is down, as in Healthchecks (DECISIONS.md "Heartbeat defaults"). */
const AUTO_CREATE_FAILURE_THRESHOLD = 1;

export interface SlugResolverDeps {
  table: Table;
  clock: Clock;
  pingKeys: Pick<PingKeyService, 'tenantOf'>;
  tenants: Pick<TenantStore, 'getTenant'>;
  checkService: Pick<CheckService, 'requireRun' | 'create'>;
  blueprintService: Pick<BlueprintService, 'create'>;
  entityService: Pick<EntityService, 'get' | 'create'>;
  /** The audit log: what `?create=1` makes is recorded, the ping key (by its prefix) as the actor. */
  audit: RecordAuditEvent;
}

/** A ping key's displayed prefix (its first 4 characters, as GET /v1/settings/ping-key shows it). */
const PING_KEY_PREFIX_LENGTH = 4;

/** Who made what `?create=1` made: the ping key, by its prefix, from the ping's address. */
interface Maker {
  tenantId: string;
  pingKey: string;
  ctx: Pick<RouteContext, 'sourceIp'>;
}

const isConflict = (error: unknown) => error instanceof ConflictError;

/**
 * Slug ping URLs (`/ping/<ping key>/<slug>`): the ping key names the tenant, the slug one of its
 * push checks; anything unknown is UnknownPingTokenError (404), which the ping routes count against
 * the caller's address under the failed-authentication limits, as a wrong token. With
 * `?create=1`, a slug no check has yet gets a new push check (AUTO_CREATE_*): at most
 * AUTO_CREATE_PER_MINUTE per tenant and minute (429 past it), under the tenant's check limit; of
 * concurrent first pings of one slug, one creates the check (its slug item's condition decides)
 * and the others ping the check it made.
 */
export function createSlugResolver(deps: SlugResolverDeps): SlugResolver {
  /** The live push check whose slug `slug` is, or undefined. */
  const checkOf = async (tenantId: string, slug: string): Promise<string | undefined> => {
    const held = await getSlug(deps.table, tenantId, slug);
    if (!held) return undefined;
    try {
      const run = await deps.checkService.requireRun(tenantId, held.check_id);
      const { definition } = run;
      // A slug item left by a deleted check, or one its check no longer has, names nothing.
      if (definition.check_type !== 'push' || definition.config.slug !== slug) return undefined;
      return definition.id;
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };

  /** Records one object `?create=1` made, as the router records a create (action, target, summary). */
  const made = (by: Maker, type: string, id: string, body: unknown) => {
    const prefix = by.pingKey.slice(0, PING_KEY_PREFIX_LENGTH);
    return deps.audit({
      tenantId: by.tenantId,
      actor: { type: 'ping_key', id: prefix, label: `ping key ${prefix}… (?create=1)` },
      action: `${type}.create`,
      target: { type, id },
      summary: redactedSummary(body),
      sourceIp: by.ctx.sourceIp,
    });
  };

  /** The id of the entity auto-provisioned checks sit on, made (with its blueprint) when absent. */
  const homeEntityId = async (by: Maker): Promise<string> => {
    const { tenantId } = by;
    const { blueprint, entity } = AUTO_CREATE_HOME;
    const existing = await deps.entityService.get(tenantId, blueprint, entity).catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
    if (existing) return existing.id;
    // Made by a concurrent first ping meanwhile: a conflict, then read below.
    const blueprintBody = {
      slug: blueprint,
      name: 'Heartbeats',
      description: 'Push checks created by their first ping (slug ping URLs with ?create=1)',
      fields: [],
      is_default: false,
    };
    await deps.blueprintService.create(tenantId, blueprintBody).then(
      (created) => made(by, 'blueprint', created.id, blueprintBody),
      (err: unknown) => {
        if (!isConflict(err)) throw err;
      },
    );
    const entityBody = { slug: entity, name: 'Heartbeats', fields: {} };
    await deps.entityService.create(tenantId, blueprint, entityBody).then(
      (created) => made(by, 'entity', created.id, entityBody),
      (err: unknown) => {
        if (!isConflict(err)) throw err;
      },
    );
    return (await deps.entityService.get(tenantId, blueprint, entity)).id;
  };

  const autoCreate = async (by: Maker, slug: string): Promise<PingTarget> => {
    const { tenantId } = by;
    const tenant = await deps.tenants.getTenant(tenantId);
    if (!tenant) throw new UnknownPingTokenError();
    if (tenant.disabled) throw new AccountDisabledError();
    const now = deps.clock.now();
    await deps.table.update(autoCreateCountedOp(tenantId, now)).catch((err: unknown) => {
      if (!(err instanceof ConditionFailedError)) throw err;
      throw new RateLimitedError((60_000 - (now % 60_000)) / 1000, {
        message: `?create=1 makes at most ${AUTO_CREATE_PER_MINUTE} checks per account and minute`,
      });
    });
    const body = createCheckBody.parse({
      entity_id: await homeEntityId(by),
      check_type: 'push',
      name: slug,
      interval_seconds: AUTO_CREATE_PERIOD_SECONDS,
      failure_threshold: AUTO_CREATE_FAILURE_THRESHOLD,
      // Vigil's grace is the whole silence allowed after a success: Healthchecks' period + grace.
      config: { slug, grace_seconds: AUTO_CREATE_PERIOD_SECONDS + AUTO_CREATE_GRACE_SECONDS },
    });
    try {
      const check = await deps.checkService.create(tenantId, body);
      await made(by, 'check', check.id, body);
      return { tenantId, checkId: check.id, created: true };
    } catch (err) {
      if (!(err instanceof SlugTakenError)) throw err;
      // A concurrent first ping of this slug made the check: this ping is for it.
      const checkId = await checkOf(tenantId, slug);
      if (!checkId) throw err;
      return { tenantId, checkId };
    }
  };

  return {
    async resolve(ctx, pingKey, slug, options) {
      const tenantId = await deps.pingKeys.tenantOf(pingKey);
      if (!tenantId) throw new UnknownPingTokenError();
      if (!PUSH_SLUG_PATTERN.test(slug)) throw new UnknownSlugError();
      const checkId = await checkOf(tenantId, slug);
      if (checkId) return { tenantId, checkId };
      if (!options.create) throw new UnknownSlugError();
      return autoCreate({ tenantId, pingKey, ctx }, slug);
    },
  };
}
