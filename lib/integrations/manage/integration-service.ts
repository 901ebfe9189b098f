import { hashApiKey, randomBase62 } from '../../auth/api-key.ts';
import type { Clock } from '../../platform/clock.ts';
import { isoTime } from '../../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { transactIf } from '../../store/items.ts';
import type { Table } from '../../store/table.ts';
import {
  getIntegration,
  type IntegrationRecord,
  integrationByTokenHash,
  integrationCreatedOps,
  integrationDeletedOps,
  integrationReplacedOps,
  listIntegrations,
  MAX_INTEGRATIONS_PER_TENANT,
} from '../items/integration-items.ts';
import { integrationPartitionDeletes, outsideTallyEntities } from '../items/outside-alert-items.ts';
import { INTEGRATION_KINDS } from '../kinds/registry.ts';
import type { IntegrationBody } from './integration-schemas.ts';

/**
 * A tenant's integrations (DECISIONS.md "Outside alerts (wave 6)"): each gets an entity of its
 * own (blueprint `integration`, made when missing), where the alerts its rules place nowhere land,
 * and an ingest token — 32 random base62 characters, shown once at create and at rotation, only
 * its SHA-256 kept. The token is the path of its ingest URL and, for the pagerduty kind, its
 * routing key.
 */

/** What integrations need of the catalog: their own entities. */
export interface IntegrationCatalog {
  /** Makes the `integration` blueprint if the tenant has none, and the integration's entity in it; its id. */
  createOwnEntity(tenantId: string, slug: string, name: string): Promise<string>;
  /** Removes the integration's entity (its checks go with it), if it is still there. */
  removeOwnEntity(tenantId: string, slug: string): Promise<void>;
}

export interface IntegrationServiceDeps {
  table: Table;
  clock: Clock;
  catalog: IntegrationCatalog;
  /** Deletes the integration's outside check on an entity (lib/checks), if there is one. */
  removeOutsideCheck(integration: IntegrationRecord, entityId: string): Promise<void>;
}

/** The slug of an integration's own entity: its id in slug form (`int-01j…`). */
const ownEntitySlug = (integrationId: string) => integrationId.replace('_', '-').toLowerCase();

const TOKEN_LENGTH = 32;
/** Items deleted per transaction when an integration goes (DynamoDB's transaction bound). */
const PURGE_ROUND = 100;

/** The caller's token when it chose one, else a new random one; its hash and shown prefix. */
function tokenOf(chosen?: string): { token: string; hash: string; prefix: string } {
  const token = chosen ?? randomBase62(TOKEN_LENGTH);
  return { token, hash: hashApiKey(token), prefix: token.slice(0, 6) };
}

const TOKEN_TAKEN =
  'that token is in use by another integration: choose another, or leave it out for a new one';

/** The kind's settings a body carries (the generic kind's paths), or null. */
function settingsOf(body: IntegrationBody): Record<string, unknown> | null {
  const field = INTEGRATION_KINDS[body.kind].settings?.field;
  return field === undefined ? null : (body[field] as Record<string, unknown>);
}

export function createIntegrationService(deps: IntegrationServiceDeps) {
  const { table, clock } = deps;

  const require = async (tenantId: string, id: string) => {
    const found = await getIntegration(table, tenantId, id);
    if (!found) throw new NotFoundError('integration');
    return found;
  };

  /**
   * `previous` with `changes`, written over the version it was read at (its token's lookup moved
   * with it); false when another write got there first.
   */
  const change = async (previous: IntegrationRecord, changes: Partial<IntegrationRecord>) => {
    const record = {
      ...previous,
      ...changes,
      updated_at: isoTime(clock.now()),
      version: previous.version + 1,
    };
    return (await transactIf(table, integrationReplacedOps(record, previous))) ? record : undefined;
  };

  return {
    list: (tenantId: string) => listIntegrations(table, tenantId),

    get: require,

    /** A new integration, its entity and its token (the only time the token is shown, but rotation). */
    async create(
      tenantId: string,
      body: IntegrationBody,
    ): Promise<{ record: IntegrationRecord; token: string }> {
      if ((await listIntegrations(table, tenantId)).length >= MAX_INTEGRATIONS_PER_TENANT)
        throw new LimitExceededError(`a tenant keeps at most ${MAX_INTEGRATIONS_PER_TENANT} integrations`);
      const now = clock.now();
      const id = newId('int', now);
      const entityId = await deps.catalog.createOwnEntity(tenantId, ownEntitySlug(id), body.name);
      const { token, hash, prefix } = tokenOf(body.token);
      const record: IntegrationRecord = {
        id,
        tenant_id: tenantId,
        name: body.name,
        kind: body.kind,
        enabled: body.enabled,
        entity_rules: body.entity_rules,
        severity_map: body.severity_map,
        settings: settingsOf(body),
        entity_id: entityId,
        token_hash: hash,
        token_prefix: prefix,
        sns_topic_arn: null,
        created_at: isoTime(now),
        updated_at: isoTime(now),
        version: 1,
      };
      if (!(await transactIf(table, integrationCreatedOps(record)))) {
        await deps.catalog.removeOwnEntity(tenantId, ownEntitySlug(id));
        // A random token and a new id collide with nothing: only a chosen token can be taken.
        if (body.token !== undefined) throw new ConflictError(TOKEN_TAKEN);
        throw new Error('a new integration collided with an existing one');
      }
      return { record, token };
    },

    /** Replaces what a request may set; the kind stays (a new kind is a new integration). */
    async replace(tenantId: string, id: string, body: IntegrationBody): Promise<IntegrationRecord> {
      const previous = await require(tenantId, id);
      if (body.kind !== previous.kind)
        throw new ConflictError('an integration’s kind cannot change: make a new one');
      const chosen = body.token === undefined ? undefined : tokenOf(body.token);
      if (chosen && chosen.hash !== previous.token_hash) {
        const holder = await integrationByTokenHash(table, chosen.hash);
        if (holder) throw new ConflictError(TOKEN_TAKEN);
      }
      const record = await change(previous, {
        name: body.name,
        enabled: body.enabled,
        entity_rules: body.entity_rules,
        severity_map: body.severity_map,
        settings: settingsOf(body),
        ...(chosen ? { token_hash: chosen.hash, token_prefix: chosen.prefix } : {}),
      });
      if (!record) throw new ConflictError('the integration changed meanwhile: read it again');
      return record;
    },

    /** A new token; the old one stops working at once. */
    async rotateToken(tenantId: string, id: string): Promise<{ record: IntegrationRecord; token: string }> {
      const previous = await require(tenantId, id);
      const { token, hash, prefix } = tokenOf();
      const record = await change(previous, { token_hash: hash, token_prefix: prefix });
      if (!record) throw new ConflictError('the integration changed meanwhile: try again');
      return { record, token };
    },

    /**
     * Deletes the integration: first disabled (its senders get 410 from then on), then its alerts,
     * tallies and payload log in rounds, then it, its token and its own entity (whose checks go
     * with it). A delete that fails midway leaves a disabled integration; deleting it again goes on.
     */
    async remove(tenantId: string, id: string): Promise<void> {
      let record = await require(tenantId, id);
      // Disabled first, over the version read (read again while others write it: a rename, a delete).
      for (let attempt = 1; record.enabled; attempt++) {
        const disabled = await change(record, { enabled: false });
        if (disabled) record = disabled;
        else if (attempt >= 3) throw new ConflictError('the integration changed meanwhile: delete it again');
        else record = await require(tenantId, id);
      }
      // Its outside checks first: the tallies in the partition are what says where they are.
      for (const entityId of await outsideTallyEntities(table, id))
        await deps.removeOutsideCheck(record, entityId);
      for (let more = true; more; ) {
        const round = await integrationPartitionDeletes(table, id, PURGE_ROUND);
        if (round.ops.length > 0) await table.transact(round.ops);
        more = round.more;
      }
      if (!(await transactIf(table, integrationDeletedOps(record)))) throw new NotFoundError('integration');
      await deps.catalog.removeOwnEntity(tenantId, ownEntitySlug(id));
    },

    /** The integration an ingest token names (404 when none: a wrong token reads as no integration). */
    async byToken(token: string): Promise<IntegrationRecord> {
      const found = await integrationByTokenHash(table, hashApiKey(token));
      if (!found) throw new NotFoundError('integration');
      return found;
    },

    /** Records the SNS topic a cloudwatch integration confirmed. */
    async topicConfirmed(integration: IntegrationRecord, topicArn: string): Promise<void> {
      await change(integration, { sns_topic_arn: topicArn });
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
