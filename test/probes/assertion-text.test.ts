import { describe, expect, it } from 'vitest';
import type { HttpAssertion } from '../../lib/domain/http-assertions.ts';
import { isSecretName } from '../../lib/domain/redaction/secret-names.ts';
import { MAX_SHOWN } from '../../lib/probes/assertion-text.ts';
import { type AssertedResponse, evaluateAssertions } from '../../lib/probes/assertions.ts';

/**
 * What a failed assertion's message shows (docs/api.md "Assertions and degraded"): expected and
 * actual values only where they are not secret-looking, and at most MAX_SHOWN characters of them.
 */

const response = (over: Partial<AssertedResponse> = {}): AssertedResponse => ({
  status: 200,
  headers: {
    'set-cookie': ['sid=s3ss10n-abcdef; HttpOnly', 'csrftoken=c5rf-123456'],
    authorization: 'Bearer echoed-token-123',
    'x-api-key': 'echoed-key-123',
    'x-csrf-token': 'csrf-value-123',
    'x-build': '42',
  },
  body: JSON.stringify({
    status: 'ok',
    password: 'hunter2-pass',
    cookies: ['sid=abc-123456'],
    session: { id: 'sess-123456', user: 'ann' },
    data: { api_key: 'ak-123456', accessToken: 'at-123456' },
    user: { name: 'ann', password: 'pw-123456', tokens: ['t-1', 't-2'], note: 'Bearer abcdef123456' },
    blob: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
    long: 'x'.repeat(500),
  }),
  latencyMs: 10,
  ...over,
});
const message = (a: HttpAssertion, r = response()) => evaluateAssertions([a], r);

describe('assertion messages', () => {
  it("mask a target's Set-Cookie and other secret-looking headers, expected value included", () => {
    expect(message({ source: 'header', path: 'Set-Cookie', op: 'eq', value: 'sid=x' })).toBe(
      'assertion failed: header set-cookie is ********, expected eq ********',
    );
    for (const path of ['Authorization', 'X-Api-Key', 'x-csrf-token']) {
      const text = message({ source: 'header', path, op: 'contains', value: 'nope' });
      expect(text).toBe(
        `assertion failed: header ${path.toLowerCase()} is ********, expected contains ********`,
      );
    }
    expect(message({ source: 'header', path: 'Proxy-Authorization', op: 'exists' })).toBe(
      'assertion failed: header proxy-authorization is missing, expected to exist',
    );
  });

  it('mask json values read through a secret-looking name anywhere along the path', () => {
    for (const path of [
      '$.password',
      '$.cookies[0]',
      '$.session.id',
      '$.data.api_key',
      '$.data.accessToken',
    ]) {
      expect(message({ source: 'json', path, op: 'eq', value: 'x' }), path).toBe(
        `assertion failed: ${path} is ********, expected eq ********`,
      );
    }
  });

  it('show other values, with secret-looking names and credential-shaped text inside them masked', () => {
    expect(message({ source: 'json', path: '$.status', op: 'eq', value: 'up' })).toBe(
      'assertion failed: $.status is "ok", expected eq "up"',
    );
    expect(message({ source: 'json', path: '$.user', op: 'eq', value: 'x' })).toBe(
      'assertion failed: $.user is {"name":"ann","password":"********","tokens":"********","note":"********"}, expected eq "x"',
    );
    expect(message({ source: 'json', path: '$.blob', op: 'eq', value: 'x' })).toBe(
      'assertion failed: $.blob is "********", expected eq "x"',
    );
    expect(message({ source: 'header', path: 'x-build', op: 'lt', value: 1 })).toBe(
      'assertion failed: header x-build is "42", expected lt 1',
    );
  });

  it(`show at most ${MAX_SHOWN} characters of a value`, () => {
    const text = message({ source: 'json', path: '$.long', op: 'eq', value: 'x' }) ?? '';
    const shown = /is (.*), expected/.exec(text)?.[1] ?? '';
    expect(shown).toHaveLength(MAX_SHOWN);
    expect(shown.endsWith('…')).toBe(true);
    const whole = message({ source: 'json', path: '$', op: 'eq', value: 'x' }) ?? '';
    expect(whole).not.toContain('hunter2-pass');
    expect(whole.length).toBeLessThan(MAX_SHOWN + 60);
  });

  it('answer in words for a deeply nested document instead of failing to print it', () => {
    const depth = 20_000;
    const body = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(message({ source: 'json', path: '$.a', op: 'exists', value: false }, response({ body }))).toMatch(
      /^assertion failed: \$\.a is \[\[\[.*, expected not to exist$/,
    );
  });
});

describe('secret-looking names', () => {
  it('cover cookies, authorization, keys, tokens, secrets and passwords in any case and form', () => {
    for (const name of [
      'cookie',
      'Set-Cookie',
      'Authorization',
      'proxy-authorization',
      'X-Api-Key',
      'apikey',
      'x-auth-token',
      'accessToken',
      'client_secret',
      'DB_PASSWORD',
      'passwd',
      'X-Amz-Signature',
      'session_id',
      'csrftoken',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['status', 'content-type', 'x-build', 'items', 'author', 'version', 'etag']) {
      expect(isSecretName(name), name).toBe(false);
    }
  });
});
