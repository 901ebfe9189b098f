import { describe, expect, it } from 'vitest';
import {
  type AddressClass,
  classifyAddress,
  describeClass,
  isAllowedClass,
  parseAddress,
} from '../../lib/egress/ip-rules.ts';

const table: [string, AddressClass][] = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.5', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'private'],
  ['100.127.255.254', 'private'],
  ['100.128.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['192.0.0.192', 'metadata'],
  ['172.15.255.255', 'public'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', 'public'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.1', 'public'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['1.1.1.1', 'public'],
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::2', 'reserved'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'private'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001:0db8:85a3::8a2e:370:7334', 'reserved'],
  ['2001::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['100::1', 'reserved'],
  ['fd00:ec2::254', 'metadata'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:82b::200e', 'public'],
  ['4000::1', 'reserved'],
  // IPv4 carried in IPv6 follows the IPv4 rules
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:10.0.0.5', 'private'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:c0a8:0101::1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:808:808::1', 'public'],
  ['::127.0.0.1', 'reserved'],
];

describe('classifyAddress', () => {
  it.each(table)('classifies %s as %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it('throws on something that is not an IP address', () => {
    expect(() => classifyAddress('example.com')).toThrow('not an IP address: example.com');
    expect(() => classifyAddress('256.1.1.1')).toThrow(TypeError);
  });
});

describe('parseAddress', () => {
  it('expands IPv6 shorthand and embedded IPv4 to 16 bytes', () => {
    expect(parseAddress('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect(parseAddress('1:2::8')).toEqual([0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8]);
    expect(parseAddress('10.1.2.3')).toEqual([10, 1, 2, 3]);
    expect(parseAddress('nope')).toBeUndefined();
  });
});

describe('isAllowedClass', () => {
  const classes: AddressClass[] = [
    'public',
    'private',
    'loopback',
    'link-local',
    'metadata',
    'multicast',
    'unspecified',
    'reserved',
  ];

  it('allows only public addresses when private targets are off', () => {
    expect(classes.filter((c) => isAllowedClass(c, false))).toEqual(['public']);
  });

  it('keeps metadata and multicast closed even when private targets are on', () => {
    expect(classes.filter((c) => !isAllowedClass(c, true))).toEqual(['metadata', 'multicast']);
  });

  it('phrases each class for messages', () => {
    expect(describeClass('private')).toBe('a private address');
    expect(describeClass('unspecified')).toBe('an unspecified address');
  });
});
