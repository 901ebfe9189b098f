import type { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Arrival } from './alert-stats.ts';
import { type Percentiles, percentiles } from './stats.ts';
import { inBatches, postResult, wallMs } from './webhook-rig.ts';

/**
 * The alerts scenario's flapping round, measured apart from its latency rounds (which run with
 * flap detection off): every check gets `flap_changes: 2` and a window of `windowSeconds`, then
 * five changes at once (down, up, down, up, down). The first two alert as usual; the third starts
 * flapping (one `flapping` notice, the alert held); the last two are held; a window after the last
 * change, one alert tells the state the check settled in (down). Counted at the receiver (alone or
 * in a digest of the storm fold): what got through while held (nothing should) and when the settled
 * truth arrived.
 */

export interface FlapFigures {
  checks: number;
  windowSeconds: number;
  /** Alerts of the first two changes, told as usual (expected: two per check). */
  passed: { expected: number; read: number };
  /** `flapping` notices read, one per check expected; ms from the third change's 201. */
  notices: { expected: number; read: number; from201Ms: Percentiles };
  /** Alerts or recoveries read for the held changes before their window ran out (expected 0). */
  leaked: number;
  /** The one alert after the window: how many were read, how many named the settled state (down). */
  settled: {
    expected: number;
    read: number;
    rightState: number;
    /** From the last change's 201 to the read. */
    afterLastChangeMs: Percentiles;
    /** The same less the window: how long after the check had been stable for the window. */
    lateMs: Percentiles;
  };
  /** Second notices or settled alerts for one check. */
  duplicates: number;
}

export interface FlapRound {
  api(method: string, path: string, body?: unknown): Promise<unknown>;
  agent: Agent;
  base: URL;
  key: string;
  checkIds: string[];
  /** Where the receiver's arrivals land (the round replaces the array as it goes). */
  inbox: { arrivals: Arrival[] };
  windowSeconds: number;
  /** Longest wait for the alerts of one change, and beyond the window for the settled ones. */
  phaseTimeoutMs: number;
  onProgress?: (line: string) => void;
}

const CHANGES = ['down', 'up', 'down', 'up', 'down'] as const;
/** The changes that alert before flapping starts: more than `flap_changes` (2) is flapping. */
const PASSING = 2;

const told = z.object({
  kind: z.string(),
  check_id: z.string(),
  to_state: z.string(),
  timestamp: z.string(),
});
type Told = z.infer<typeof told> & { readAtMs: number };

const digest = z.object({ kind: z.literal('digest'), events: z.array(told) });

/** Each event an arrival tells: itself, or each event of a digest (the storm fold's). */
function parse(arrivals: readonly Arrival[]): Told[] {
  const out: Told[] = [];
  for (const a of arrivals) {
    try {
      const body: unknown = JSON.parse(a.body);
      const folded = digest.safeParse(body);
      const events = folded.success ? folded.data.events : [told.safeParse(body).data ?? []].flat();
      for (const event of events) out.push({ ...event, readAtMs: a.readAtMs });
    } catch {
      // Not an event: the latency rounds count such arrivals; here they are left out.
    }
  }
  return out;
}

/** Runs the round on checks that are up, each with its own webhook (bench/alerts.ts's setup). */
export async function runFlapRound(round: FlapRound): Promise<FlapFigures> {
  const { checkIds, inbox } = round;
  const windowMs = round.windowSeconds * 1000;
  await inBatches(checkIds, 10, (id) =>
    round.api('POST', `/v1/checks/${id}/policy`, {
      flap_changes: PASSING,
      flap_window_seconds: round.windowSeconds,
    }),
  );
  const isAlert = (t: Told) => t.kind === 'alert' || t.kind === 'recovery';
  // A settled alert carries the last held change's event and cannot be read before its window ran out.
  const isSettled = (t: Told) => isAlert(t) && t.readAtMs - Date.parse(t.timestamp) >= windowMs - 50;
  const heard: Told[][] = [];
  const answered: Map<string, number>[] = [];
  const distinct = (ts: Told[], pick: (t: Told) => boolean) =>
    new Set(ts.filter(pick).map((t) => t.check_id)).size;

  for (const [i, toState] of CHANGES.entries()) {
    inbox.arrivals = [];
    const at = new Map<string, number>();
    await Promise.all(
      checkIds.map(async (id) =>
        at.set(id, await postResult(round.agent, round.base, round.key, id, toState === 'up')),
      ),
    );
    answered.push(at);
    const deadline = wallMs() + round.phaseTimeoutMs;
    // Until each check's alert (the passing changes) or notice (the third) is read; the held ones get a moment.
    const waitFor = i < PASSING ? isAlert : i === PASSING ? (t: Told) => t.kind === 'flapping' : undefined;
    if (waitFor)
      while (distinct(parse(inbox.arrivals), waitFor) < checkIds.length && wallMs() < deadline)
        await sleep(10);
    else await sleep(500);
    heard.push(parse(inbox.arrivals));
  }
  round.onProgress?.(
    `alerts flapping: five changes posted; waiting ${round.windowSeconds} s for the settled alerts`,
  );
  const lastAnswered = answered.at(-1) ?? new Map<string, number>();
  const settleDeadline = Math.max(...lastAnswered.values()) + windowMs + round.phaseTimeoutMs;
  inbox.arrivals = [];
  while (distinct(parse(inbox.arrivals), isSettled) < checkIds.length && wallMs() < settleDeadline)
    await sleep(100);
  const after = parse(inbox.arrivals);
  const held = [...heard.slice(PASSING).flat(), ...after];

  const notices = held.filter((t) => t.kind === 'flapping');
  const settled = held.filter(isSettled);
  const firstPer = (ts: Told[]) => [...new Map(ts.toReversed().map((t) => [t.check_id, t])).values()];
  const noticeAt = answered[PASSING] ?? new Map<string, number>();
  const delays = (ts: Told[], from: Map<string, number>, less = 0) =>
    ts.flatMap((t) => {
      const posted = from.get(t.check_id);
      return posted === undefined ? [] : [t.readAtMs - posted - less];
    });
  const firstSettled = firstPer(settled);
  return {
    checks: checkIds.length,
    windowSeconds: round.windowSeconds,
    passed: {
      expected: PASSING * checkIds.length,
      read: heard.slice(0, PASSING).reduce((s, ts) => s + distinct(ts, isAlert), 0),
    },
    notices: {
      expected: checkIds.length,
      read: distinct(notices, () => true),
      from201Ms: percentiles(delays(firstPer(notices), noticeAt)),
    },
    leaked: held.filter((t) => isAlert(t) && !isSettled(t)).length,
    settled: {
      expected: checkIds.length,
      read: firstSettled.length,
      rightState: firstSettled.filter((t) => t.to_state === 'down').length,
      afterLastChangeMs: percentiles(delays(firstSettled, lastAnswered)),
      lateMs: percentiles(delays(firstSettled, lastAnswered, windowMs)),
    },
    duplicates: notices.length - firstPer(notices).length + settled.length - firstSettled.length,
  };
}
