import pkg from '../../package.json' with { type: 'json' };
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { ConflictError, LimitExceededError, NotFoundError } from '../platform/errors.ts';
import { newId, newRecordStamp } from '../platform/ids.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import {
  getLocation,
  type LocationKind,
  type LocationRecord,
  listLocations,
  locationCreatedOps,
  locationDeletedOps,
  locationKeyCountedOp,
  locationKeyUncountedOp,
} from './location-items.ts';
import { generateLocationKey, hashLocationKey, locationKeyPrefix } from './location-key.ts';
import {
  getLocationKey,
  type LocationKeyRecord,
  listLocationKeys,
  locationKeyCreatedOps,
  locationKeyDeletedOps,
} from './location-key-items.ts';
import { DEFAULT_LOCATION, type PublicLocation } from './responses.ts';

/** A location is online when seen within this: three missed heartbeat writes (HEARTBEAT_WRITE_MS). */
const ONLINE_WINDOW_MS = 90_000;
/** Keys one location holds at most (rotation needs two); its deletion takes them all in one transaction. */
const MAX_KEYS_PER_LOCATION = 10;
/** Stored locations one tenant holds at most. */
const MAX_LOCATIONS = 50;

export interface LocationServiceDeps {
  table: Table;
  clock: Clock;
  /** The tenant's creation time: `default` has existed since. */
  tenantCreatedAt(tenantId: string): Promise<string>;
  /** One check of the tenant that names the location (by name), if any: the location stays while one does. */
  checkNaming(tenantId: string, location: string): Promise<{ id: string; name: string } | undefined>;
}

/** The public view of a stored location, its state as of `nowMs`. */
function publicLocation(record: LocationRecord, nowMs: number): PublicLocation {
  const seen = record.last_seen_at === null ? undefined : Date.parse(record.last_seen_at);
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    state: seen !== undefined && nowMs - seen <= ONLINE_WINDOW_MS ? 'online' : 'offline',
    last_seen_at: record.last_seen_at,
    version: record.version,
    created_at: record.created_at,
  };
}

/** A new key of `location` and the writes that store it (the location's key count first). */
function newKey(location: LocationRecord, nowMs: number) {
  const raw = generateLocationKey();
  const record: LocationKeyRecord = {
    id: newId('lky', nowMs),
    tenant_id: location.tenant_id,
    location_id: location.id,
    prefix: locationKeyPrefix(raw),
    key_hash: hashLocationKey(raw),
    created_at: isoTime(nowMs),
  };
  const ops = [
    locationKeyCountedOp(location.tenant_id, location.id, MAX_KEYS_PER_LOCATION),
    ...locationKeyCreatedOps(record, location.name),
  ];
  return { raw, record, ops };
}

/** The Locations API (docs/locations.md): named places that probe, and their keys. */
export function createLocationService(deps: LocationServiceDeps) {
  const { table, clock } = deps;

  const requireLocation = async (tenantId: string, id: string) => {
    const location = await getLocation(table, tenantId, id);
    if (!location) throw new NotFoundError('location');
    return location;
  };

  return {
    /** Every location of the tenant, `default` first, then by creation. */
    async list(tenantId: string): Promise<PublicLocation[]> {
      const now = clock.now();
      const [stored, createdAt] = await Promise.all([
        listLocations(table, tenantId),
        deps.tenantCreatedAt(tenantId),
      ]);
      const runtime: PublicLocation = {
        id: DEFAULT_LOCATION,
        name: DEFAULT_LOCATION,
        kind: 'runtime',
        // The runtime answering this request is its own evidence.
        state: 'online',
        last_seen_at: isoTime(now),
        version: pkg.version,
        created_at: createdAt,
      };
      return [runtime, ...stored.map((record) => publicLocation(record, now))];
    },

    /** A new location and its first key (shown this once); 409 when the name is taken. */
    async create(tenantId: string, input: { name: string; kind: LocationKind }) {
      if (input.name === DEFAULT_LOCATION) throw new ConflictError('the location default always exists');
      if ((await listLocations(table, tenantId)).length >= MAX_LOCATIONS)
        throw new LimitExceededError(`an account holds at most ${MAX_LOCATIONS} locations`);
      const { id, now, at } = newRecordStamp('loc', clock);
      const record: LocationRecord = {
        id,
        tenant_id: tenantId,
        name: input.name,
        kind: input.kind,
        created_at: at,
        last_seen_at: null,
        version: null,
        key_count: 0,
      };
      const key = newKey(record, now);
      try {
        // The key count starts at 1 with the first key: the count op applies to the item not yet written.
        await table.transact([...locationCreatedOps({ ...record, key_count: 1 }), ...key.ops.slice(1)]);
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failed.includes(1))
          throw new ConflictError(`a location named ${input.name} already exists`);
        throw error;
      }
      return { id: record.id, name: record.name, kind: record.kind, key_id: key.record.id, key: key.raw };
    },

    /** The location's keys: ids and prefixes, never the keys. */
    async keys(tenantId: string, id: string) {
      await requireLocation(tenantId, id);
      const keys = await listLocationKeys(table, tenantId, id);
      return keys.map((k) => ({ id: k.id, prefix: k.prefix, created_at: k.created_at }));
    },

    /** Another key of the location (shown this once): 403 past MAX_KEYS_PER_LOCATION. */
    async addKey(tenantId: string, id: string) {
      const location = await requireLocation(tenantId, id);
      const key = newKey(location, clock.now());
      try {
        await table.transact(key.ops);
      } catch (error) {
        if (error instanceof ConditionFailedError && error.failed.includes(0)) {
          if (!(await getLocation(table, tenantId, id))) throw new NotFoundError('location');
          throw new LimitExceededError(`a location holds at most ${MAX_KEYS_PER_LOCATION} keys`);
        }
        throw error;
      }
      return {
        key_id: key.record.id,
        key: key.raw,
        prefix: key.record.prefix,
        created_at: key.record.created_at,
      };
    },

    /** Revokes a key: its next request is refused (the hash item is read on every request). */
    async revokeKey(tenantId: string, id: string, keyId: string): Promise<void> {
      const key = await getLocationKey(table, tenantId, id, keyId);
      if (!key) throw new NotFoundError('location key');
      try {
        await table.transact([...locationKeyDeletedOps(key), locationKeyUncountedOp(tenantId, id)]);
      } catch (error) {
        if (error instanceof ConditionFailedError) throw new NotFoundError('location key');
        throw error;
      }
    },

    /** Deletes the location and every key of it; 409 while a check names it (naming one). */
    async remove(tenantId: string, id: string): Promise<void> {
      const location = await requireLocation(tenantId, id);
      // Not one transaction with the checks' writes: a check created meanwhile naming it finds the
      // location unknown for its slots (never a failure), and a second delete is refused while it names it.
      const naming = await deps.checkNaming(tenantId, location.name);
      if (naming) {
        throw new ConflictError(
          `the check "${naming.name}" (${naming.id}) probes from ${location.name}: remove ${location.name} from its locations first`,
        );
      }
      const keys = await listLocationKeys(table, tenantId, id);
      try {
        await table.transact([
          ...locationDeletedOps(location, keys.length),
          ...keys.flatMap(locationKeyDeletedOps),
        ]);
      } catch (error) {
        // Deleted meanwhile (404), or a key added or revoked meanwhile: the caller tries again.
        if (error instanceof ConditionFailedError) {
          if (!(await getLocation(table, tenantId, id))) throw new NotFoundError('location');
          throw new ConflictError('the location’s keys changed meanwhile; try again');
        }
        throw error;
      }
    },
  };
}

export type LocationService = ReturnType<typeof createLocationService>;
