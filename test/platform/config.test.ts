import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../lib/auth/api-key.ts';
import { loadConfig } from '../../lib/platform/config.ts';

describe('loadConfig: VIGIL_BOOTSTRAP_KEY', () => {
  it('takes a well-formed key as the bootstrap key', () => {
    const key = generateApiKey();

    const config = loadConfig('local', { VIGIL_BOOTSTRAP_KEY: key });

    expect(config.bootstrapKey).toBe(key);
  });

  it('refuses a malformed key with a readable line naming the variable and the format', () => {
    const key = generateApiKey();
    const typo = `${key.slice(0, 10)}${key[10] === 'a' ? 'b' : 'a'}${key.slice(11)}`;

    for (const bad of ['vgl_not-a-key', typo]) {
      expect(() => loadConfig('local', { VIGIL_BOOTSTRAP_KEY: bad })).toThrow(
        'invalid configuration:\n  VIGIL_BOOTSTRAP_KEY: Use a valid Vigil key: vgl_, 32 base62 characters and a 6-character checksum.',
      );
    }
  });

  it('leaves the bootstrap key unset when the variable is absent', () => {
    expect(loadConfig('cloud', {}).bootstrapKey).toBeUndefined();
  });
});

describe('loadConfig: notification settings', () => {
  it('reads NATS servers, the egress allow-list and the public URL as lists and a bare URL', () => {
    const config = loadConfig('local', {
      VIGIL_NATS_URL: 'nats://127.0.0.1:4222, nats://user:pw@10.0.0.2:4222',
      VIGIL_EGRESS_ALLOW: '10.0.0.0/8,fd00::/8',
      VIGIL_PUBLIC_URL: 'https://vigil.example.com/',
    });

    expect(config.natsUrls).toEqual(['nats://127.0.0.1:4222', 'nats://user:pw@10.0.0.2:4222']);
    expect(config.egressAllow).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(config.publicUrl).toBe('https://vigil.example.com');
  });

  it('defaults to no NATS server, no allowed private range and no links', () => {
    const config = loadConfig('local', {});

    expect(config).toMatchObject({ natsUrls: [], egressAllow: [], publicUrl: undefined });
  });

  it('refuses a server that is not nats:// and a range that is not a CIDR, naming the variable', () => {
    expect(() => loadConfig('local', { VIGIL_NATS_URL: 'http://127.0.0.1:4222' })).toThrow(
      'VIGIL_NATS_URL.0: expected nats://host:port URLs',
    );
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'lan/8', '::1/129']) {
      expect(() => loadConfig('local', { VIGIL_EGRESS_ALLOW: bad })).toThrow(
        'VIGIL_EGRESS_ALLOW.0: expected CIDRs',
      );
    }
  });

  it('reads VIGIL_ALLOWED_HOSTS as a comma list of host names, refusing anything that is no host', () => {
    expect(loadConfig('local', {}).allowedHosts).toEqual([]);
    expect(
      loadConfig('local', { VIGIL_ALLOWED_HOSTS: ' vigil.lan, 10.0.0.5:8080,[fd00::5] ,' }).allowedHosts,
    ).toEqual(['vigil.lan', '10.0.0.5:8080', '[fd00::5]']);
    for (const bad of ['https://vigil.lan', 'vigil.lan/x', 'a b', 'user@vigil.lan'])
      expect(() => loadConfig('local', { VIGIL_ALLOWED_HOSTS: bad }), bad).toThrow(
        'VIGIL_ALLOWED_HOSTS.0: expected host names',
      );
  });

  it('roots NATS subjects at VIGIL_NATS_PREFIX, vigil by default', () => {
    expect(loadConfig('local', {}).natsPrefix).toBe('vigil');
    expect(loadConfig('cloud', { VIGIL_NATS_PREFIX: 'acme.vigil' }).natsPrefix).toBe('acme.vigil');
  });

  it('refuses a prefix that is not plain NATS tokens: $ and _INBOX roots, wildcards, empty tokens', () => {
    for (const [bad, why] of [
      ['$JS', 'Do not start with $'],
      ['_INBOX.vigil', 'Do not start with _INBOX'],
      ['vigil.*', 'Leave out the wildcards'],
      ['vigil.>', 'Leave out the wildcards'],
      ['vigil..x', 'Use dot-separated tokens'],
      ['', 'Use dot-separated tokens'],
      ['has space', 'Use printable ASCII'],
    ]) {
      expect(() => loadConfig('local', { VIGIL_NATS_PREFIX: bad }), bad).toThrow(
        `VIGIL_NATS_PREFIX: expected NATS subject tokens such as vigil or acme.vigil. ${why}`,
      );
    }
  });
});

describe('loadConfig: local HTTP limits', () => {
  it('defaults to a 10 s header timeout, a 60 s request timeout, 5 s keep-alive and 1,024 connections', () => {
    expect(loadConfig('local', {}).http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1024,
    });
  });

  it('reads the four variables', () => {
    const config = loadConfig('local', {
      VIGIL_HTTP_HEADERS_TIMEOUT_MS: '2000',
      VIGIL_HTTP_REQUEST_TIMEOUT_MS: '30000',
      VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      VIGIL_HTTP_MAX_CONNECTIONS: '64',
    });

    expect(config.http).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 1000,
      maxConnections: 64,
    });
  });

  it('refuses no cap, a header timeout longer than the request timeout, and a zero timeout', () => {
    expect(() => loadConfig('local', { VIGIL_HTTP_MAX_CONNECTIONS: '0' })).toThrow(
      'VIGIL_HTTP_MAX_CONNECTIONS',
    );
    expect(() =>
      loadConfig('local', { VIGIL_HTTP_HEADERS_TIMEOUT_MS: '20000', VIGIL_HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow('VIGIL_HTTP_HEADERS_TIMEOUT_MS: must not exceed VIGIL_HTTP_REQUEST_TIMEOUT_MS');
    expect(() => loadConfig('local', { VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_MS: '0' })).toThrow(
      'VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    );
  });
});
