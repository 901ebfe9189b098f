import { isIPv4, isIPv6 } from 'node:net';

/** What kind of destination an IP address is, for the SSRF guard. */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

interface Rule {
  prefix: number[];
  bits: number;
  cls: AddressClass;
}

/** Parses `a.b.c.d` into its 4 bytes or an IPv6 address into its 16 bytes; undefined when not an IP. */
export function parseAddress(ip: string): number[] | undefined {
  if (isIPv4(ip)) return ip.split('.').map(Number);
  const bare = ip.split('%')[0] ?? '';
  if (!isIPv6(bare)) return undefined;
  let text = bare.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...new Array<string>(fill).fill('0'), ...tailGroups];
  return groups.flatMap((g) => {
    const n = Number.parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

const v4 = (cidr: string, cls: AddressClass): Rule => {
  const [addr = '', bits = '32'] = cidr.split('/');
  return { prefix: addr.split('.').map(Number), bits: Number(bits), cls };
};

const v6 = (cidr: string, cls: AddressClass): Rule => {
  const [addr = '', bits = '128'] = cidr.split('/');
  return { prefix: parseAddress(addr) ?? [], bits: Number(bits), cls };
};

// First match wins, so the narrow metadata entries come before the ranges holding them.
const v4Rules: Rule[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack
  v4('169.254.170.2/32', 'metadata'), // ECS task metadata
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4('192.0.0.192/32', 'metadata'), // Oracle Cloud
  v4('0.0.0.0/8', 'unspecified'), // "this network"; connecting to it reaches the local host on Linux
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'private'), // carrier-grade NAT shared space
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'reserved'), // TEST-NET-1
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'), // benchmarking
  v4('198.51.100.0/24', 'reserved'), // TEST-NET-2
  v4('203.0.113.0/24', 'reserved'), // TEST-NET-3
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'), // future use, includes 255.255.255.255 broadcast
];

const v6Rules: Rule[] = [
  v6('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('::/8', 'reserved'), // IPv4-compatible and other legacy forms
  v6('100::/64', 'reserved'), // discard-only
  v6('2001::/23', 'reserved'), // IETF protocol assignments: Teredo, benchmarking, ORCHID
  v6('2001:db8::/32', 'reserved'), // documentation
  v6('3fff::/20', 'reserved'), // documentation (RFC 9637)
  v6('fc00::/7', 'private'), // unique local
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // site-local (deprecated)
  v6('ff00::/8', 'multicast'),
];

function matches(bytes: number[], rule: Rule): boolean {
  for (let bit = 0; bit < rule.bits; bit += 8) {
    const i = bit / 8;
    const take = Math.min(8, rule.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((rule.prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const mappedPrefix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]; // ::ffff:0:0/96
const nat64Prefix = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0]; // 64:ff9b::/96

function classifyV4(bytes: number[]): AddressClass {
  return v4Rules.find((rule) => matches(bytes, rule))?.cls ?? 'public';
}

function classifyV6(bytes: number[]): AddressClass {
  // Forms that carry an IPv4 address reach that address, so they follow the IPv4 rules.
  if (startsWith(bytes, mappedPrefix) || startsWith(bytes, nat64Prefix)) return classifyV4(bytes.slice(12));
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const embedded = classifyV4(bytes.slice(2, 6)); // 6to4: 2002:aabb:ccdd::/48
    if (embedded !== 'public') return embedded;
  }
  const hit = v6Rules.find((rule) => matches(bytes, rule));
  if (hit) return hit.cls;
  // Only 2000::/3 is allocated as global unicast.
  return ((bytes[0] ?? 0) & 0xe0) === 0x20 ? 'public' : 'reserved';
}

/** Classes of addresses seen lately: probes ask about the same few addresses thousands of times a second. */
const seenClasses = new Map<string, AddressClass | undefined>();
const MAX_SEEN_CLASSES = 4096;

/** The class of an IPv4 or IPv6 address, undefined when `ip` is not one (remembered per text). */
export function addressClass(ip: string): AddressClass | undefined {
  if (seenClasses.has(ip)) return seenClasses.get(ip);
  const bytes = parseAddress(ip);
  const cls = bytes === undefined ? undefined : bytes.length === 4 ? classifyV4(bytes) : classifyV6(bytes);
  if (seenClasses.size >= MAX_SEEN_CLASSES) seenClasses.clear();
  seenClasses.set(ip, cls);
  return cls;
}

/** Classifies an IPv4 or IPv6 address (IPv4-mapped, NAT64 and 6to4 forms by their IPv4 address); throws on a non-IP. */
export function classifyAddress(ip: string): AddressClass {
  const cls = addressClass(ip);
  if (cls === undefined) throw new TypeError(`not an IP address: ${ip}`);
  return cls;
}

/**
 * Whether a class may be connected to. With `allowPrivate` (self-hosters monitoring their LAN)
 * only cloud metadata and multicast stay closed; without it only public addresses pass.
 */
export function isAllowedClass(cls: AddressClass, allowPrivate: boolean): boolean {
  if (cls === 'public') return true;
  return allowPrivate && cls !== 'metadata' && cls !== 'multicast';
}

const articles: Record<AddressClass, string> = {
  public: 'a public address',
  private: 'a private address',
  loopback: 'a loopback address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata address',
  multicast: 'a multicast address',
  unspecified: 'an unspecified address',
  reserved: 'a reserved address',
};

/** "a private address", "an unspecified address": the class as a phrase for error messages. */
export function describeClass(cls: AddressClass): string {
  return articles[cls];
}
