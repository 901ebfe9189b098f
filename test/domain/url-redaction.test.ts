import { describe, expect, it } from 'vitest';
import { isSecretParam, redactUrl, unredactedUrl } from '../../lib/domain/redaction/url-redaction.ts';

describe('redactUrl', () => {
  it('hides the whole userinfo, whatever it holds', () => {
    expect(redactUrl('https://user:pass@example.com/x')).toBe('https://********@example.com/x');
    expect(redactUrl('https://ghp_token@github.com/acme/ops.git')).toBe(
      'https://********@github.com/acme/ops.git',
    );
    expect(redactUrl('http://a:b@c@example.com:8080')).toBe('http://********@example.com:8080');
  });

  it('hides the values of secret-looking query and fragment parameters and keeps the rest as written', () => {
    expect(
      redactUrl(
        'https://h.example/p?ref=main&access_token=abc&X-Amz-Signature=f0&apiKey=k&empty_token=#id_token=j&x=1',
      ),
    ).toBe(
      'https://h.example/p?ref=main&access_token=********&X-Amz-Signature=********&apiKey=********&empty_token=#id_token=********&x=1',
    );
    expect(redactUrl('https://h.example/{{path}}?q={{q}}&sig={{sig}}')).toBe(
      'https://h.example/{{path}}?q={{q}}&sig=********',
    );
  });

  it('leaves URLs without secrets, and text that is no URL, unchanged', () => {
    for (const url of [
      'https://example.com',
      'https://example.com/a?b=c#d',
      'not a url',
      'https://{{host}}/x?keyword=a',
    ])
      expect(redactUrl(url)).toBe(url);
  });
});

describe('isSecretParam', () => {
  it('reads words at separators and camelCase, and a few names written as one word', () => {
    for (const name of [
      'token',
      'api_key',
      'Api-Key',
      'apikey',
      'accessToken',
      'client_secret',
      'password',
      'pwd',
      'sig',
      'X-Amz-Credential',
      'auth',
      'jsessionid',
      'private%5Ftoken',
    ])
      expect(isSecretParam(name), name).toBe(true);
    for (const name of ['ref', 'keyword', 'monkey', 'bypass', 'region', 'page', 'sort'])
      expect(isSecretParam(name), name).toBe(false);
  });
});

describe('unredactedUrl', () => {
  const stored = 'https://u:p@example.com/x?token=t';
  it('answers the stored URL for an echo of its redacted view, and the given URL otherwise', () => {
    expect(unredactedUrl('https://********@example.com/x?token=********', stored)).toBe(stored);
    expect(unredactedUrl(stored, stored)).toBe(stored);
    expect(unredactedUrl('https://example.com/new', stored)).toBe('https://example.com/new');
  });

  it('answers undefined for a ******** that stands for nothing it can restore', () => {
    expect(unredactedUrl('https://********@example.com/y?token=********', stored)).toBeUndefined();
    expect(unredactedUrl('https://example.com/?token=********', null)).toBeUndefined();
  });
});
