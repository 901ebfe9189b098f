import { z } from 'zod';

/**
 * Matching what a webhook receiver read with what the load generator caused: pure functions, so
 * test/bench/alert-stats.test.ts can pin them down.
 */

/** One request the receiver read in full, stamped when its last body byte arrived. */
export interface Arrival {
  /** Wall-clock ms (performance.timeOrigin + performance.now(), sub-millisecond). */
  readAtMs: number;
  /** X-Service-Delivery, the receiver-side dedup key. */
  delivery?: string | undefined;
  /** The raw body. */
  body: string;
  /** Whether X-Service-Signature verified (in constant time) against the channel's secret. */
  signatureValid: boolean;
}

/** The state-change event fields the benchmark matches on (SPEC.md "Events"). */
const eventFields = z.object({
  check_id: z.string(),
  to_state: z.string(),
  transition_id: z.string(),
  timestamp: z.string(),
});

/** What a phase of a round measured: one sample per alert, both ways of timing the commit. */
export interface PhaseMatch {
  /** read at the receiver minus the moment the crossing result's 201 reached the load generator. */
  from201Ms: number[];
  /** read at the receiver minus the event's `timestamp` (the recorder's clock, before the commit). */
  fromEventMs: number[];
  /** Checks of the phase whose alert has not been read (yet). */
  missing: number;
  /** Arrivals repeating a delivery id already counted (redeliveries). */
  duplicates: number;
  /** Arrivals whose signature did not verify. */
  badSignatures: number;
  /** Arrivals not belonging to the phase (another state, an unknown check, an unparsable body). */
  foreign: number;
  /** The counted alerts: transition id, event time (ms) and read time, to split the latency by stage. */
  alerts: { transitionId: string; eventMs: number; readAtMs: number }[];
}

/**
 * Matches the arrivals of one phase (every check posted one result crossing into `toState`) with
 * the times the posts were answered (`answeredAtMs` by check id). The first arrival per check
 * counts; later ones with another delivery id would be a second alert for one transition, and are
 * counted as duplicates as well.
 */
export function matchPhase(
  answeredAtMs: ReadonlyMap<string, number>,
  toState: string,
  arrivals: readonly Arrival[],
): PhaseMatch {
  const from201Ms: number[] = [];
  const fromEventMs: number[] = [];
  const alerts: PhaseMatch['alerts'] = [];
  const seenChecks = new Set<string>();
  let duplicates = 0;
  let badSignatures = 0;
  let foreign = 0;
  for (const arrival of arrivals) {
    let parsed: z.output<typeof eventFields> | undefined;
    try {
      parsed = eventFields.safeParse(JSON.parse(arrival.body)).data;
    } catch {
      parsed = undefined;
    }
    const answered = parsed ? answeredAtMs.get(parsed.check_id) : undefined;
    if (!parsed || parsed.to_state !== toState || answered === undefined) {
      foreign += 1;
      continue;
    }
    if (!arrival.signatureValid) badSignatures += 1;
    if (seenChecks.has(parsed.check_id)) {
      duplicates += 1;
      continue;
    }
    seenChecks.add(parsed.check_id);
    from201Ms.push(arrival.readAtMs - answered);
    const eventMs = Date.parse(parsed.timestamp);
    fromEventMs.push(arrival.readAtMs - eventMs);
    alerts.push({ transitionId: parsed.transition_id, eventMs, readAtMs: arrival.readAtMs });
  }
  return {
    from201Ms,
    fromEventMs,
    missing: answeredAtMs.size - seenChecks.size,
    duplicates,
    badSignatures,
    foreign,
    alerts,
  };
}

/**
 * Splits each alert's latency at the moment its delivery record was created (the `event` job ran
 * the flow): before it, the change feed, the notify queue and the flow; after it, the `deliver`
 * job's wait for a slot and the send. Alerts without a record (by transition id) are left out.
 */
export function splitStages(
  alerts: PhaseMatch['alerts'],
  recordCreatedMs: ReadonlyMap<string, number>,
): { toRecordMs: number[]; toReadMs: number[] } {
  const toRecordMs: number[] = [];
  const toReadMs: number[] = [];
  for (const alert of alerts) {
    const created = recordCreatedMs.get(alert.transitionId);
    if (created === undefined) continue;
    toRecordMs.push(created - alert.eventMs);
    toReadMs.push(alert.readAtMs - created);
  }
  return { toRecordMs, toReadMs };
}

/** How many checks of the phase have had their alert read, for the wait loop. */
export function countMatched(
  answeredAtMs: ReadonlyMap<string, number>,
  toState: string,
  arrivals: readonly Arrival[],
): number {
  return answeredAtMs.size - matchPhase(answeredAtMs, toState, arrivals).missing;
}
