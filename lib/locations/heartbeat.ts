import type { LocationPrincipal } from '../domain/principal.ts';
import type { Clock } from '../platform/clock.ts';
import { isoTime } from '../platform/clock.ts';
import { UnauthorizedError } from '../platform/errors.ts';
import { ConditionFailedError, type Table } from '../store/table.ts';
import { locationSeenOp } from './location-items.ts';

/**
 * How often one process writes a location's last_seen_at at most: heartbeats in between only
 * answer. Well inside ONLINE_WINDOW_MS (90 s), so an agent beating every 30 s or less stays online
 * whichever instance answers it. A new version is written at once.
 */
export const HEARTBEAT_WRITE_MS = 30_000;

/** The agent's heartbeat (`POST /v1/agent/heartbeat`): when its location was last seen, and its version. */
export function createHeartbeat(deps: { table: Table; clock: Clock }) {
  const written = new Map<string, { atMs: number; version: string }>();

  return async function heartbeat(location: LocationPrincipal, version: string) {
    const now = deps.clock.now();
    const last = written.get(location.locationId);
    const due = !last || last.version !== version || now < last.atMs || now - last.atMs >= HEARTBEAT_WRITE_MS;
    if (due) {
      try {
        await deps.table.update(
          locationSeenOp(location.tenantId, location.locationId, isoTime(now), version),
        );
      } catch (error) {
        // The location was deleted since its key was read: its keys went with it.
        if (error instanceof ConditionFailedError)
          throw new UnauthorizedError('missing or invalid location key');
        throw error;
      }
      if (written.size >= 10_000) written.clear();
      written.set(location.locationId, { atMs: now, version });
    }
    return {
      location: { id: location.locationId, name: location.locationName },
      server_time: isoTime(now),
    };
  };
}

export type Heartbeat = ReturnType<typeof createHeartbeat>;
