import { describe, expect, it } from 'vitest';
import { redactPingBody } from '../../lib/push/log/ping-redaction.ts';

/** The redaction of ping bodies for read-only keys (docs/api.md "Ping log"): its fixed list, line by line. */
describe('redactPingBody', () => {
  it.each([
    ['> Authorization: Bearer abc', '> Authorization: ********'],
    ['proxy-authorization:Basic eA==', 'proxy-authorization: ********'],
    ['< Set-Cookie: sid=1; HttpOnly', '< Set-Cookie: ********'],
    ['curl -H "X-Api-Key: k3y" https://example.test', 'curl -H "X-Api-Key: ********'],
    ['{"headers": {"Authorization": "Basic x"}}', '{"headers": {"Authorization": ********'],
    ['DB_PASSWORD=hunter2', 'DB_PASSWORD=********'],
    ['export GITHUB_TOKEN=ghp_x', 'export GITHUB_TOKEN=********'],
    ['SECRET_KEY = abc', 'SECRET_KEY =********'],
    ['aws_secret_access_key: abc', 'aws_secret_access_key: ********'],
    ['{"password": "x", "user": "bob"}', '{"password": ********'],
  ])('redacts %s', (line, redacted) => {
    expect(redactPingBody(line)).toBe(redacted);
  });

  it.each([
    'token=',
    'tokens processed: 5',
    'X-Authorization-Hint: fine',
    'https://example.com:443/backup',
    'backup finished in 3 s',
  ])('keeps %s', (line) => {
    expect(redactPingBody(line)).toBe(line);
  });

  it('keeps line ends and the lines around a secret', () => {
    expect(redactPingBody('start\r\nPASSWORD=x\r\ndone\n')).toBe('start\r\nPASSWORD=********\r\ndone\n');
  });

  it('reads long lines of separators and name characters in one pass', () => {
    const long = `${'a.'.repeat(50_000)}${':'.repeat(50_000)}`;
    expect(redactPingBody(long)).toBe(long);
    expect(redactPingBody(`${'x'.repeat(100_000)}_token=abc`)).toMatch(/_token=\*{8}$/);
  });
});
