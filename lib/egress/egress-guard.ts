import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import {
  CleartextDeniedError,
  ConnectionError,
  EgressDeniedError,
  InvalidUrlError,
  toEgressError,
} from './egress-errors.ts';
import { addressClass, describeClass, isAllowedClass } from './ip-rules.ts';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (the system resolver by default; tests inject their own). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;

/** What the SSRF guard needs: whether private targets are allowed, and optionally a resolver. */
export interface GuardOptions {
  allowPrivate: boolean;
  /**
   * CIDRs exempt from the private/reserved denial (VIGIL_EGRESS_ALLOW, for channels and actions);
   * cloud metadata addresses stay denied even when listed.
   */
  allow?: readonly string[];
  /**
   * Every address must be in `allow`, public ones included: an http:// channel URL, whose clear
   * text may go only to the operator's own ranges (CleartextDeniedError otherwise).
   */
  requireAllowListed?: boolean;
  resolve?: Resolve;
}

/** Allow-lists built so far, by the config's array: the guard runs on every send. */
const builtAllowLists = new WeakMap<readonly string[], BlockList>();

/** The CIDR strings as a node:net BlockList (throws on a malformed CIDR; config validates them first). */
function allowListOf(cidrs: readonly string[]): BlockList {
  const cached = builtAllowLists.get(cidrs);
  if (cached) return cached;
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address = '', bits = ''] = cidr.split('/');
    const family = isIP(address);
    if (family === 0 || !/^\d{1,3}$/.test(bits)) throw new TypeError(`not a CIDR: ${cidr}`);
    list.addSubnet(address, Number(bits), family === 6 ? 'ipv6' : 'ipv4');
  }
  builtAllowLists.set(cidrs, list);
  return list;
}

/** Whether `address` lies in one of the allow-listed CIDRs (IPv4-mapped IPv6 forms match IPv4 ranges). */
export function isAllowListed(address: string, allow: readonly string[] | undefined): boolean {
  if (!allow || allow.length === 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  return allowListOf(allow).check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The system resolver (getaddrinfo, so /etc/hosts applies), every address in resolver order. */
const systemResolve: Resolve = async (host) => {
  const found = await dnsLookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** `[::1]` (URL form) to `::1`; other hosts unchanged. */
export function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function assertAllowed(address: string, host: string, options: GuardOptions): void {
  const cls = addressClass(address) ?? 'reserved';
  // Metadata endpoints hand out cloud credentials: no allow-list entry reaches them.
  const listed = cls !== 'metadata' && isAllowListed(address, options.allow);
  if (!listed && !isAllowedClass(cls, options.allowPrivate)) {
    throw new EgressDeniedError(`destination ${address} is ${describeClass(cls)}`, host, address, {
      addressClass: cls,
    });
  }
  if (options.requireAllowListed && !listed) {
    throw new CleartextDeniedError(
      `destination ${address} is ${describeClass(cls)}, and http:// is sent only to the egress allow-list`,
      host,
      address,
      { addressClass: cls },
    );
  }
}

/**
 * An IP literal host (`[::1]` or `::1` form) checked against the guard (throws EgressDeniedError
 * when denied); undefined for a name, which needs resolving. Synchronous: the probes' hot path
 * checks literal targets without a promise. `allow` lists CIDRs exempt from the denial (GuardOptions).
 */
export function allowedLiteral(
  host: string,
  allowPrivate: boolean,
  allow?: readonly string[],
  requireAllowListed?: boolean,
): ResolvedAddress | undefined {
  const name = bareHost(host);
  const family = isIP(name);
  if (family === 0) return undefined;
  assertAllowed(name, name, { allowPrivate, allow, requireAllowListed });
  return { address: name, family: family === 6 ? 6 : 4 };
}

/**
 * Resolves `host` (a name or an IP literal) and checks every address against the guard.
 * Denies the whole host when any address is denied, so a mixed answer cannot be used to
 * slip a private address in; callers connect only to the addresses returned.
 */
export async function resolveAllowed(host: string, options: GuardOptions): Promise<ResolvedAddress[]> {
  const literal = allowedLiteral(host, options.allowPrivate, options.allow, options.requireAllowListed);
  if (literal) return [literal];
  const name = bareHost(host);
  let found: ResolvedAddress[];
  try {
    found = await (options.resolve ?? systemResolve)(name);
  } catch (err) {
    throw toEgressError(err, name);
  }
  if (found.length === 0) throw new ConnectionError(`could not resolve host ${name}`, 'ENOTFOUND');
  for (const { address } of found) assertAllowed(address, name, options);
  return found;
}

/**
 * A `lookup` for node:net, node:tls and node:http that resolves through the guard, so the
 * socket connects to exactly the address that was checked (no second lookup, no DNS
 * rebinding). Node skips `lookup` for IP literals: check those with `allowedLiteral` (or
 * `resolveAllowed`) first.
 */
export function createGuardedLookup(options: GuardOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    const family =
      lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
    resolveAllowed(hostname, options).then(
      (found) => {
        const usable = family === 4 || family === 6 ? found.filter((a) => a.family === family) : found;
        const first = usable[0];
        if (!first) {
          callback(new ConnectionError(`could not resolve host ${hostname}`, 'ENOTFOUND'), []);
        } else if (lookupOptions.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: unknown) => callback(toEgressError(err, hostname), []),
    );
  };
}

/** Parses a URL egress may call: http or https only, with a host. */
export function parseHttpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (err) {
    throw new InvalidUrlError(`invalid URL: ${String(url)}`, { cause: err });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidUrlError(
      `unsupported URL scheme ${parsed.protocol.replace(/:$/, '')}: use http or https`,
    );
  }
  if (parsed.hostname === '') throw new InvalidUrlError(`URL has no host: ${String(url)}`);
  return parsed;
}

/**
 * Validates a URL at create time: http/https, and its host resolves only to allowed addresses.
 * With `httpOnlyToAllowList`, an http:// URL must resolve only to allow-listed addresses
 * (CleartextDeniedError). Throws InvalidUrlError, EgressDeniedError or ConnectionError (host does
 * not resolve).
 */
export async function checkUrl(
  url: string,
  options: GuardOptions & { httpOnlyToAllowList?: boolean },
): Promise<URL> {
  const parsed = parseHttpUrl(url);
  const requireAllowListed = options.httpOnlyToAllowList === true && parsed.protocol === 'http:';
  await resolveAllowed(parsed.hostname, { ...options, requireAllowListed });
  return parsed;
}
