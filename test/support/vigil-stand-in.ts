import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  AGENT_PATHS,
  heartbeatRequestSchema,
  leasedJobSchema,
  leaseRequestSchema,
  type ResultEntry,
  resultsRequestSchema,
} from '../../lib/agent/protocol.ts';

/** A job the stand-in hands out: as leased (`check` is whatever the test puts there). */
export interface StandInJob {
  job_id: string;
  slot: number;
  check: Record<string, unknown>;
  /** A job no server should send (a type no agent probes): handed out without checking it against the protocol. */
  unchecked?: true;
}

/**
 * How the stand-in answers results: `ok`; `unavailable` (503, nothing stored); `lose-answer`
 * (stores them, then drops the connection before answering, as a server crashing after its commit).
 */
type ResultsMode = 'ok' | 'unavailable' | 'lose-answer';

export const resultKey = (e: { job_id: string; slot: number }) => `${e.job_id}@${e.slot}`;

/**
 * A stand-in for Vigil's agent routes on 127.0.0.1 (lib/agent/protocol.ts), with a job queue the
 * test fills: leases wait for jobs up to their wait_seconds, results are stored once per job (the
 * idempotency of (job, location) for one location), heartbeats are recorded. It can go away
 * (`stop`) and come back on the same port (`start`).
 */
export async function startVigilStandIn(key: string) {
  const queue: StandInJob[] = [];
  const waiting = new Set<() => void>();
  const sockets = new Set<Socket>();
  const state = {
    resultsMode: 'ok' as ResultsMode,
    /** Every lease request's body, in order. */
    leases: [] as { max: number; wait_seconds: number }[],
    /** Every job handed out, in order (a redelivered job twice). */
    leased: [] as StandInJob[],
    /** Every results POST's entries as received, stored or not. */
    posts: [] as ResultEntry[][],
    /** The stored result of each job, and how often each was stored (must stay 1). */
    stored: new Map<string, ResultEntry>(),
    storedTimes: new Map<string, number>(),
    heartbeats: [] as { version: string; authorization: string | undefined }[],
    unauthorized: 0,
  };
  let server: Server | undefined;
  let port = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  const lease = (res: ServerResponse, req: IncomingMessage, max: number, waitSeconds: number) => {
    const answer = () => {
      const jobs = queue.splice(0, max);
      state.leased.push(...jobs);
      for (const job of jobs) if (!job.unchecked) leasedJobSchema.parse(job);
      json(res, 200, { jobs: jobs.map(({ job_id, slot, check }) => ({ job_id, slot, check })) });
    };
    if (queue.length > 0 || waitSeconds === 0) return answer();
    const wake = () => {
      clearTimeout(timer);
      waiting.delete(wake);
      if (!res.writableEnded && !req.socket.destroyed) answer();
    };
    const timer = setTimeout(wake, waitSeconds * 1000);
    waiting.add(wake);
    res.on('close', () => {
      clearTimeout(timer);
      waiting.delete(wake);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    if (req.headers.authorization !== `Bearer ${key}`) {
      state.unauthorized += 1;
      return json(res, 401, { error: 'Unauthorized', code: 'UNAUTHORIZED' });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(res, 400, { error: 'not JSON', code: 'VALIDATION_ERROR' });
    }
    if (req.url === AGENT_PATHS.lease) {
      const parsed = leaseRequestSchema.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: parsed.error.message, code: 'VALIDATION_ERROR' });
      state.leases.push(parsed.data);
      return lease(res, req, parsed.data.max, parsed.data.wait_seconds);
    }
    if (req.url === AGENT_PATHS.results) {
      const parsed = resultsRequestSchema.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: parsed.error.message, code: 'VALIDATION_ERROR' });
      state.posts.push(parsed.data);
      if (state.resultsMode === 'unavailable') return json(res, 503, { error: 'busy', code: 'UNAVAILABLE' });
      const results = parsed.data.map((entry) => {
        const k = resultKey(entry);
        const status = state.stored.has(k) ? ('duplicate' as const) : ('recorded' as const);
        if (status === 'recorded') {
          state.stored.set(k, entry);
          state.storedTimes.set(k, (state.storedTimes.get(k) ?? 0) + 1);
        }
        return { job_id: entry.job_id, slot: entry.slot, status };
      });
      if (state.resultsMode === 'lose-answer') return req.socket.destroy();
      return json(res, 200, { results });
    }
    if (req.url === AGENT_PATHS.heartbeat) {
      const parsed = heartbeatRequestSchema.safeParse(body);
      if (!parsed.success) return json(res, 400, { error: parsed.error.message, code: 'VALIDATION_ERROR' });
      state.heartbeats.push({ version: parsed.data.version, authorization: req.headers.authorization });
      return json(res, 200, {
        location: { id: 'loc_01TESTLOCATION', name: 'office' },
        server_time: new Date().toISOString(),
      });
    }
    return json(res, 404, { error: 'Not found', code: 'NOT_FOUND' });
  };

  const start = async () => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    s.listen(port, '127.0.0.1');
    await once(s, 'listening');
    port = (s.address() as AddressInfo).port;
    server = s;
  };

  await start();
  return {
    state,
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    /** Queues jobs for the next leases (a job queued again is a redelivery). */
    enqueue(...jobs: StandInJob[]): void {
      queue.push(...jobs);
      for (const wake of [...waiting]) wake();
    },
    /** Goes away: the port closes and every connection (held leases too) is cut. */
    async stop(): Promise<void> {
      const s = server;
      server = undefined;
      if (!s) return;
      const closed = once(s, 'close');
      s.close();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    /** Comes back on the same port. */
    start,
  };
}

export type VigilStandIn = Awaited<ReturnType<typeof startVigilStandIn>>;
