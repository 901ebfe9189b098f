import { describe, expect, it } from 'vitest';
import {
  browserRefusal,
  hostPolicyOf,
  isAllowedHost,
  isAllowedOrigin,
  requestOrigin,
} from '../../lib/http/origin-policy.ts';

// The one Origin rule of both runtimes: no Origin, the request's own origin, or VIGIL_PUBLIC_URL's.

const local = { host: '127.0.0.1:8080' };
const cloud = { host: 'd111111abcdef8.cloudfront.net', 'x-forwarded-proto': 'https' };

describe('requestOrigin', () => {
  it('is the scheme (https only when the edge says so) and the Host, normalised as browsers send it', () => {
    expect(requestOrigin(local)).toBe('http://127.0.0.1:8080');
    expect(requestOrigin(cloud)).toBe('https://d111111abcdef8.cloudfront.net');
    expect(requestOrigin({ host: 'Vigil.Example.COM:443', 'x-forwarded-proto': 'https' })).toBe(
      'https://vigil.example.com',
    );
    expect(requestOrigin({ host: '[::1]:8080' })).toBe('http://[::1]:8080');
  });

  it('is undefined without a Host or with one that is no host', () => {
    expect(requestOrigin({})).toBeUndefined();
    for (const host of ['', 'a b', 'evil.example/x', 'user@evil.example', 'a,b'])
      expect(requestOrigin({ host }), host).toBeUndefined();
  });
});

describe('isAllowedOrigin', () => {
  it('allows a request without an Origin', () => {
    expect(isAllowedOrigin(local, undefined)).toBe(true);
    expect(isAllowedOrigin({}, undefined)).toBe(true);
  });

  it("allows the request's own origin and VIGIL_PUBLIC_URL's origin (its path aside)", () => {
    expect(isAllowedOrigin({ ...local, origin: 'http://127.0.0.1:8080' }, undefined)).toBe(true);
    expect(isAllowedOrigin({ ...cloud, origin: 'https://d111111abcdef8.cloudfront.net' }, undefined)).toBe(
      true,
    );
    expect(
      isAllowedOrigin({ ...local, origin: 'https://vigil.example.com' }, 'https://vigil.example.com/app'),
    ).toBe(true);
  });

  it('refuses every other origin: another host, port or scheme, "null", a non-http origin, garbage', () => {
    for (const origin of [
      'https://evil.example',
      'http://127.0.0.1:8081',
      'https://127.0.0.1:8080',
      'http://localhost:8080',
      'null',
      'file://',
      'chrome-extension://abcdef',
      'not a url',
    ]) {
      expect(isAllowedOrigin({ ...local, origin }, 'https://vigil.example.com'), origin).toBe(false);
    }
    // Without a usable Host the request has no own origin to match.
    expect(isAllowedOrigin({ origin: 'http://127.0.0.1:8080' }, undefined)).toBe(false);
  });
});

describe('the Host policy (DNS rebinding)', () => {
  const policy = hostPolicyOf({
    publicUrl: 'https://Vigil.Example.com:8443/app',
    allowedHosts: ['vigil.lan', 'VIGIL.internal:9000', '[fd00::5]'],
    host: '0.0.0.0',
  });

  it("knows loopback, VIGIL_PUBLIC_URL's host and VIGIL_ALLOWED_HOSTS, on any port, never a wildcard bind", () => {
    expect([...policy.hosts].sort()).toEqual(
      [
        '127.0.0.1',
        'localhost',
        '[::1]',
        'vigil.lan',
        'vigil.internal',
        '[fd00::5]',
        'vigil.example.com',
      ].sort(),
    );
    for (const host of [
      'localhost',
      'LocalHost:3000',
      '127.0.0.1:1',
      '[::1]:8080',
      'vigil.lan:1',
      'vigil.internal',
    ])
      expect(isAllowedHost({ host }, policy), host).toBe(true);
    expect(
      hostPolicyOf({ publicUrl: undefined, allowedHosts: [], host: '192.168.1.5' }).hosts.has('192.168.1.5'),
    ).toBe(true);
    expect(hostPolicyOf({ publicUrl: undefined, allowedHosts: [], host: '::' }).hosts.has('[::]')).toBe(
      false,
    );
  });

  it('refuses any other Host, a missing one, and look-alikes', () => {
    for (const host of [
      'evil.example.com',
      'localhost.evil.example',
      'vigil.lan.evil.example',
      '127.0.0.2',
      'a b',
      '',
    ])
      expect(isAllowedHost({ host }, policy), host).toBe(false);
    expect(isAllowedHost({}, policy)).toBe(false);
  });

  it("accepts the name the platform routed the request by (the cloud's own URLs, the proven edge Host)", () => {
    const platform = 'abc123.lambda-url.us-east-1.on.aws';
    expect(isAllowedHost({ host: platform }, policy, platform)).toBe(true);
    expect(isAllowedHost({}, policy, platform)).toBe(true);
    expect(isAllowedHost({ host: 'evil.example.com' }, policy, platform)).toBe(false);
  });

  it('refuses the rebinding request (own Host and Origin) for its Host, another page for its Origin', () => {
    const rebinding = { host: 'evil.example.com', origin: 'http://evil.example.com' };
    expect(browserRefusal(rebinding, policy)).toBe('host');
    expect(browserRefusal({ host: 'localhost:8080', origin: 'http://evil.example.com' }, policy)).toBe(
      'origin',
    );
    expect(
      browserRefusal({ host: 'localhost:8080', origin: 'http://localhost:8080' }, policy),
    ).toBeUndefined();
    expect(browserRefusal({ host: 'localhost:8080' }, policy)).toBeUndefined();
  });
});
