import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from '../../lib/sso/email-address.ts';

describe('an SSO identity’s e-mail claim', () => {
  it('is an address with its domain, lower case and trimmed', () => {
    expect(parseEmailAddress(' Bob@Example.COM ')).toEqual({
      email: 'bob@example.com',
      domain: 'example.com',
    });
    expect(parseEmailAddress("o'brien+ops@sub.example.com")).toEqual({
      email: "o'brien+ops@sub.example.com",
      domain: 'sub.example.com',
    });
  });

  it('is no address with two @, even when the last part is an allowed domain', () => {
    for (const claim of ['x@evil.test@example.test', 'x@@example.test', '"x@evil.test"@example.test'])
      expect(parseEmailAddress(claim), claim).toBeUndefined();
  });

  it('is no address without a local part or a valid domain, or when it is not a string', () => {
    for (const claim of [
      '@example.test',
      'x@',
      'x',
      'x@example.test.',
      'x@-example.test',
      'x@exa mple.test',
      '',
    ])
      expect(parseEmailAddress(claim), claim).toBeUndefined();
    expect(parseEmailAddress(['x@example.test'])).toBeUndefined();
    expect(parseEmailAddress(`${'a'.repeat(250)}@example.test`)).toBeUndefined();
  });
});
