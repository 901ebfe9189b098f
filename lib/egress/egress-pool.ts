/**
 * Kept-alive connection pools for the sends of channels and actions (never probes: a probe
 * measures its connect). A fresh TLS connection per alert doubled the server's CPU per alert
 * (3.3-3.4 ms against 1.5 kept, result ingest included; docs/performance.md, "Alerts"), and with
 * it how long the last of 100 simultaneous alerts waits.
 *
 * How the SSRF guard still holds: every send resolves its host through the guard (DNS answers
 * change), and only then picks a pool, keyed by the approved address with the host, port, SNI
 * name, trusted CAs and guard settings. A pool dials only its own address (a custom connect, no
 * lookup of its own), re-checked by the guard at each new connection, so a kept connection is
 * always one the guard approved for that host. When a host's answer no longer holds an address (or
 * is denied), that address's pool is closed. Idle connections close after a bounded time (the
 * server's Keep-Alive hint honoured up to a maximum), pools beyond a bound close least recently used
 * first, and close() ends every one (a stopping runtime waits on no socket).
 */

import type * as Undici from 'undici';
import type { HttpTransport, TransportRequest } from './egress.ts';
import { ConnectionError, EgressDeniedError } from './egress-errors.ts';
import { allowedLiteral, type GuardOptions, type ResolvedAddress, resolveAllowed } from './egress-guard.ts';
import type { Http1Response } from './http1-client.ts';
import { encodeRequest } from './http1-request-head.ts';
import { loadUndici, undiciExchange } from './undici-client.ts';

export interface EgressPoolOptions {
  /** How long an idle connection is kept when the server gives no Keep-Alive hint; 4 s by default. */
  keepAliveTimeoutMs?: number;
  /** The most a server's Keep-Alive hint (less 1 s) may keep an idle connection; 10 s by default. */
  keepAliveMaxTimeoutMs?: number;
  /** Pools kept at once; beyond, the least recently used is closed. 256 by default. */
  maxPools?: number;
  /** Connections per pool; more sends at once queue on the least busy one, under their own deadline. 32 by default. */
  connectionsPerPool?: number;
}

/** The pools of one process (a local runtime, a Lambda container), made by its composition. */
export interface EgressPool {
  /** Sends one hop on a kept connection to an address the guard approved for this send. */
  transport: HttpTransport;
  /** Pools open now. */
  size(): number;
  /** Closes every pool and its sockets; later sends fail. */
  close(): Promise<void>;
}

/**
 * One key's connections: a Client (one connection, one request at a time) each. Not undici's Pool:
 * a kept socket takes its next request only a loop turn after the last response ended, and Pool
 * opens another connection meanwhile, so 5 back-to-back sends used 2 connections (measured);
 * picking an idle Client here queues the send on its socket for that turn instead.
 */
interface Entry {
  clients: Undici.Client[];
  host: string;
  address: string;
  make(): Undici.Client;
}

/** An idle connected Client, else an idle one (it reconnects), else a new one up to `max`, else the least busy. */
function pickClient(entry: Entry, max: number): Undici.Client {
  let idle: Undici.Client | undefined;
  let least: Undici.Client | undefined;
  let leastSize = Number.POSITIVE_INFINITY;
  for (const client of entry.clients) {
    const { size, connected } = client.stats;
    if (size === 0 && connected) return client;
    if (size === 0) idle ??= client;
    else if (size < leastSize) [least, leastSize] = [client, size];
  }
  if (idle) return idle;
  if (entry.clients.length < max || !least) {
    const client = entry.make();
    entry.clients.push(client);
    return client;
  }
  return least;
}

/** Subtracted from a server's Keep-Alive hint, so this side closes before the server does. */
const HINT_MARGIN_MS = 1000;

export function createEgressPool(options: EgressPoolOptions = {}): EgressPool {
  const maxPools = options.maxPools ?? 256;
  const connections = options.connectionsPerPool ?? 32;
  const settings = {
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 4000,
    keepAliveMaxTimeout: options.keepAliveMaxTimeoutMs ?? 10_000,
    keepAliveTimeoutThreshold: HINT_MARGIN_MS,
  };
  /** By pool key, least recently used first. */
  const pools = new Map<string, Entry>();
  /** Pool keys by host (scheme, name, port): what a new answer for the host retires. */
  const byHost = new Map<string, Set<string>>();
  /** Connections of retired pools, closing once their requests finish: ended too by close(). */
  const draining = new Set<Undici.Client>();
  const caIds = new WeakMap<readonly string[], number>();
  let caCount = 0;
  let closed = false;

  function caId(ca: readonly string[] | undefined): number {
    if (!ca) return 0;
    let id = caIds.get(ca);
    if (id === undefined) {
      caCount += 1;
      id = caCount;
      caIds.set(ca, id);
    }
    return id;
  }

  function retire(key: string): void {
    const entry = pools.get(key);
    if (!entry) return;
    pools.delete(key);
    const keys = byHost.get(entry.host);
    keys?.delete(key);
    if (keys?.size === 0) byHost.delete(entry.host);
    // Requests already queued finish; no new connection is made.
    for (const client of entry.clients) {
      draining.add(client);
      client
        .close()
        .catch(() => undefined)
        .finally(() => draining.delete(client));
    }
  }

  /** Closes the host's pools whose address is not in its current answer. */
  function retireMissing(host: string, found: readonly ResolvedAddress[]): void {
    const keys = byHost.get(host);
    if (!keys) return;
    for (const key of [...keys]) {
      const entry = pools.get(key);
      if (entry && !found.some((a) => a.address === entry.address)) retire(key);
    }
  }

  function open(
    undici: typeof Undici,
    key: string,
    host: string,
    address: string,
    req: TransportRequest,
    servername?: string,
  ) {
    const { guard } = req;
    const connector = undici.buildConnector({
      ...(req.ca ? { ca: req.ca } : {}),
      ...(servername ? { servername } : {}),
    });
    const clientOptions: Undici.Client.Options = {
      ...settings,
      // Dials the approved address only (no lookup), judged again by the guard for each new connection.
      connect: (opts, callback) => {
        try {
          allowedLiteral(address, guard.allowPrivate, guard.allow, guard.requireAllowListed);
        } catch (err) {
          callback(err as Error, null);
          return;
        }
        connector({ ...opts, hostname: address }, callback);
      },
    };
    const origin = req.url.origin;
    const entry: Entry = { clients: [], host, address, make: () => new undici.Client(origin, clientOptions) };
    pools.set(key, entry);
    const keys = byHost.get(host) ?? new Set<string>();
    byHost.set(host, keys.add(key));
    for (const oldest of pools.keys()) {
      if (pools.size <= maxPools) break;
      retire(oldest);
    }
    return entry;
  }

  async function transport(req: TransportRequest): Promise<Http1Response> {
    const { url } = req;
    // Method, path and header checks as the other clients make them, and the SNI rule.
    const { servername } = encodeRequest(req);
    if (closed) throw new ConnectionError('egress connections are closed (shutting down)', 'ECONNABORTED');
    req.signal?.throwIfAborted();
    // Loaded on the first send (lib/egress/undici-client.ts); the checks after the lookup hold for it too.
    const undici = await loadUndici();
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const host = `${url.protocol}//${url.hostname}:${port}`;
    let found: ResolvedAddress[];
    try {
      found = await resolveAllowed(url.hostname, req.guard);
    } catch (err) {
      // The host now reaches a denied address: none of its kept connections is used again.
      if (err instanceof EgressDeniedError) retireMissing(host, []);
      throw err;
    }
    req.signal?.throwIfAborted();
    if (closed) throw new ConnectionError('egress connections are closed (shutting down)', 'ECONNABORTED');
    retireMissing(host, found);
    const rest = `${servername ?? ''}|${caId(req.ca)}|${guardKey(req.guard)}`;
    const keyOf = (a: ResolvedAddress) => `${host}|${a.address}|${rest}`;
    // An address with a pool already (round-robin answers), else the answer's first IPv4 one: a pool
    // dials one address, without the fallback between families a fresh connect had, and many
    // hosts (a Lambda outside a dual-stack VPC) have no IPv6 route.
    const chosen =
      found.find((a) => pools.has(keyOf(a))) ??
      found.find((a) => a.family === 4) ??
      (found[0] as ResolvedAddress);
    const key = keyOf(chosen);
    let entry = pools.get(key);
    if (entry) {
      pools.delete(key);
      pools.set(key, entry);
    } else {
      entry = open(undici, key, host, chosen.address, req, servername);
    }
    return undiciExchange(pickClient(entry, connections), req);
  }

  return {
    transport,
    size: () => pools.size,
    async close() {
      closed = true;
      const all = [...[...pools.values()].flatMap((e) => e.clients), ...draining];
      pools.clear();
      byHost.clear();
      draining.clear();
      await Promise.all(all.map((client) => client.destroy().catch(() => undefined)));
    },
  };
}

/** What a pool's connections are judged by, as part of its key. */
function guardKey(guard: GuardOptions): string {
  const flags = `${guard.allowPrivate ? 'p' : ''}${guard.requireAllowListed ? 'l' : ''}`;
  return `${flags}:${guard.allow?.join(',') ?? ''}`;
}
