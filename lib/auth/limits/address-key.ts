import { isIPv6 } from 'node:net';
import { Address6 } from 'ip-address';

/** The IPv6 prefix one source counts by: a /64 is what one subscriber (a home, a VM) is given. */
const IPV6_SOURCE_PREFIX = 64;

/**
 * The name a source address is counted by in a rate-limit bucket (docs/api.md "Rate limits"): an
 * IPv4 address as it is; an IPv6 address by its /64 (`2001:db8:1:2::/64`), since one host holds a
 * whole /64 and picks a new address in it at will; an IPv4 address written as IPv6 (`::ffff:a.b.c.d`,
 * a dual-stack socket's form) as the IPv4 address. Parsed by `ip-address` (every IPv6 spelling, a
 * zone dropped); anything else (a name the runtime passed on) as it came, and no address as none.
 */
export function sourceKey(address: string): string;
export function sourceKey(address: string | undefined): string | undefined;
export function sourceKey(address: string | undefined): string | undefined {
  if (address === undefined) return undefined;
  // An IPv6 address has a ':', an IPv4 one none: most requests skip the IPv6 parse.
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0] ?? address;
  if (!isIPv6(bare)) return address;
  const parsed = new Address6(bare);
  if (parsed.isMapped4()) return parsed.to4().correctForm();
  return new Address6(`${bare}/${IPV6_SOURCE_PREFIX}`).networkForm();
}
