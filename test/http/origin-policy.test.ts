import { describe, expect, it } from 'vitest';
import { isAllowedOrigin, requestOrigin } from '../../lib/http/origin-policy.ts';

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
