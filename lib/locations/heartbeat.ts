import type { LocationPrincipal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { getLocation, locationSeenOp } from './location-items.ts';

/**
 * How often one process writes a location's last_seen_at at most: heartbeats in between only
 * answer. Well inside ONLINE_WINDOW_MS (90 s), so an agent beating every 30 s or less stays online
 * whichever instance answers it. A new version is written at once.
 */
const HEARTBEAT_WRITE_MS = 30_000;

/**
 * The agent's heartbeat (`POST /v1/agent/heartbeat`): when its location was last seen, and its
 * version. `heartbeat.seen(location)` marks the location seen without a version (a lease), under
 * the same throttle.
 */
export function createHeartbeat(deps: { table: Table; clock: Clock }) {
  const written = new Map<string, { atMs: number; version: string | undefined }>();

  /**
   * Writes last_seen_at (and the version, when given and new) unless this process wrote it lately;
   * answers the stored version it replaced when the agent reports another one (the audit log's
   * agent entry: a first heartbeat or an upgrade), else undefined.
   */
  const markSeen = async (
    location: LocationPrincipal,
    now: number,
    version: string | undefined,
  ): Promise<{ from: string | null } | undefined> => {
    const last = written.get(location.locationId);
    const newVersion = version !== undefined && last?.version !== version;
    const due = !last || newVersion || now < last.atMs || now - last.atMs >= HEARTBEAT_WRITE_MS;
    if (!due) return undefined;
    // Read only when this process has not seen this version: once per location, process and version.
    const stored = newVersion
      ? await getLocation(deps.table, location.tenantId, location.locationId)
      : undefined;
    try {
      await deps.table.update(locationSeenOp(location.tenantId, location.locationId, isoTime(now), version));
    } catch (error) {
      // The location was deleted since its key was read: its keys went with it.
      if (error instanceof ConditionFailedError)
        throw new UnauthorizedError('missing or invalid location key');
      throw error;
    }
    if (written.size >= 10_000) written.clear();
    written.set(location.locationId, { atMs: now, version: version ?? last?.version });
    return stored && (stored.version ?? null) !== version ? { from: stored.version ?? null } : undefined;
  };

  async function heartbeat(location: LocationPrincipal, version: string) {
    const now = deps.clock.now();
    const changed = await markSeen(location, now, version);
    return {
      location: { id: location.locationId, name: location.locationName },
      server_time: isoTime(now),
      ...(changed ? { versionChangedFrom: changed.from } : {}),
    };
  }

  return Object.assign(heartbeat, {
    seen: async (location: LocationPrincipal) => {
      await markSeen(location, deps.clock.now(), undefined);
    },
  });
}

export type Heartbeat = ReturnType<typeof createHeartbeat>;
