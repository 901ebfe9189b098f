import { describe, expect, it } from 'vitest';
import { fixedOrigin, headersRefusal, templatesOrigin } from '../../lib/actions/runs/origin.ts';
import { secretRedactor } from '../../lib/domain/redaction/secret-redaction.ts';

describe('the origin of an action URL template', () => {
  it('is fixed when no placeholder stands in the scheme, userinfo, host or port', () => {
    expect(fixedOrigin('https://Ops.Example.com:443/deploy/{{ref}}?env={{env}}')).toBe(
      'https://ops.example.com',
    );
    expect(fixedOrigin('http://127.0.0.1:8080\\{{path}}')).toBe('http://127.0.0.1:8080');
    for (const url of [
      'https://{{host}}/x',
      'https://ops.example.com{{path}}',
      'https://{{user}}@ops.example.com/',
      'https://ops.example.com:{{port}}/',
    ]) {
      expect(templatesOrigin(url), url).toBe(true);
      expect(fixedOrigin(url), url).toBeUndefined();
    }
  });

  it('lets headers go only to the stored origin', () => {
    const action = { url: 'https://a.example/{{p}}', headers: { Authorization: 'x' } };
    expect(headersRefusal(action, 'https://a.example/@evil.example')).toBeUndefined();
    expect(headersRefusal({ ...action, url: 'https://{{h}}/' }, 'https://a.example/')).toMatch(
      /from a variable/,
    );
    expect(headersRefusal(action, 'https://b.example/')).toMatch(/reaches https:\/\/b\.example/);
    expect(
      headersRefusal({ ...action, url: 'https://{{h}}/', headers: {} }, 'https://b.example/'),
    ).toBeUndefined();
  });
});

describe('secret redaction of what an execution stores', () => {
  const redact = secretRedactor([
    'Bearer tok_0123456789',
    `Basic ${Buffer.from('deploy:pa55word!').toString('base64')}`,
    'json',
    'a"b\\c-secret',
    'vcb_exe_x_y',
  ]);

  it('hides each value as written, JSON-escaped and URL-encoded, its long parts and Basic credentials', () => {
    const echoed =
      'auth=Bearer tok_0123456789; token=tok_0123456789; user=deploy:pa55word!; pw=pa55word!; "a\\"b\\\\c-secret" a%22b%5Cc-secret cb=vcb_exe_x_y';
    const out = redact(echoed);
    for (const leak of ['tok_0123456789', 'pa55word!', 'a\\"b', 'a%22b', 'vcb_exe_x_y'])
      expect(out).not.toContain(leak);
    expect(out).toContain('auth=********;');
  });

  it('takes any header value, a lone surrogate included', () => {
    expect(secretRedactor(['\ud800-secret-value'])('x \ud800-secret-value y')).toBe('x ******** y');
  });

  it('leaves short values alone and hides a secret cut at the end of the text', () => {
    expect(redact('{"type":"json"}')).toBe('{"type":"json"}');
    expect(redact('....Bearer tok_01')).toBe('....********');
    expect(redact('....tok_')).toBe('....********');
    expect(redact('....to')).toBe('....to');
  });
});
