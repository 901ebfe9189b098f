import { describe, expect, it } from 'vitest';
import {
  checkChannelDestination,
  parseChannelInput,
} from '../../../lib/notify/api-schemas/channel-config.ts';
import { CHANNEL_TYPES } from '../../../lib/notify/channels/registry.ts';
import { ValidationError } from '../../../lib/platform/errors.ts';

function rejection(body: unknown): ValidationError {
  try {
    parseChannelInput(body);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('the body was accepted');
}

describe('parseChannelInput', () => {
  it('accepts each channel type with its config', () => {
    const bodies = [
      { channel_type: 'slack', config: { url: 'https://hooks.slack.com/services/T0/B0/x' } },
      { channel_type: 'discord', config: { url: 'https://discord.com/api/webhooks/1/abc' } },
      { channel_type: 'webhook', config: { url: 'https://example.com/hook', secret: 'whsec_123' } },
      { channel_type: 'webhook', config: { url: 'https://example.com/hook' } },
      { channel_type: 'nats', config: { subject: 'vigil.alerts.payments' } },
      { channel_type: 'ntfy', config: { url: 'https://ntfy.sh/vigil-alerts', token: 'tk_abc' } },
    ];
    for (const body of bodies) expect(parseChannelInput(body)).toEqual(body);
  });

  it('names an unknown channel type and lists the known ones', () => {
    const err = rejection({ channel_type: 'carrier_pigeon', config: {} });
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toEqual([
      // Every registered type, in the registry's order (each type added extends it).
      { path: 'channel_type', message: `Choose a channel type: ${CHANNEL_TYPES.join(', ')}.` },
    ]);
  });

  it('takes an http or https URL for every URL channel (where http:// may go is checked with the destination)', () => {
    for (const channel_type of ['slack', 'discord', 'webhook', 'ntfy']) {
      expect(parseChannelInput({ channel_type, config: { url: 'http://example.com/x' } })).toBeDefined();
      const err = rejection({ channel_type, config: { url: 'ftp://example.com/x' } });
      expect(err.details).toEqual([
        {
          path: 'config.url',
          message: 'Enter an https:// URL (http:// only for a receiver VIGIL_EGRESS_ALLOW allows).',
        },
      ]);
    }
    expect(rejection({ channel_type: 'slack', config: { url: 'not a url' } }).details?.[0]?.path).toBe(
      'config.url',
    );
  });

  it('rejects unknown keys in the body and in the config', () => {
    expect(rejection({ channel_type: 'nats', config: { subject: 'a' }, extra: 1 }).details).toEqual([
      { path: 'extra', message: 'Unknown field: extra.' },
    ]);
    expect(
      rejection({ channel_type: 'slack', config: { url: 'https://x.example/a', secret: 's' } }).details,
    ).toEqual([{ path: 'config.secret', message: 'Unknown field: secret.' }]);
  });

  it('rejects a NATS subject with wildcards or empty tokens', () => {
    expect(rejection({ channel_type: 'nats', config: { subject: 'vigil.*' } }).details?.[0]?.message).toMatch(
      /wildcards \* and >/,
    );
    expect(rejection({ channel_type: 'nats', config: { subject: 'vigil.>' } }).details?.[0]?.message).toMatch(
      /wildcards/,
    );
    expect(rejection({ channel_type: 'nats', config: { subject: 'vigil..x' } }).details?.[0]?.message).toBe(
      'Use dot-separated tokens, none of them empty.',
    );
    expect(rejection({ channel_type: 'nats', config: { subject: 'has space' } }).details?.[0]?.message).toBe(
      'Use printable ASCII without spaces.',
    );
    expect(
      rejection({ channel_type: 'nats', config: { subject: 'a'.repeat(256) } }).details?.[0]?.message,
    ).toBe('Enter a subject of at most 255 characters.');
  });

  it('rejects a NATS subject on the server’s own APIs ($…) or other clients’ replies (_INBOX…)', () => {
    const message = (subject: string) =>
      rejection({ channel_type: 'nats', config: { subject } }).details?.[0]?.message;
    for (const subject of ['$JS.API.STREAM.PURGE.ORDERS', '$SYS.REQ.SERVER.PING', '$KV.bucket.key']) {
      expect(message(subject)).toBe(
        'Do not start with $: such subjects are the NATS server’s own APIs, such as $JS.API.',
      );
    }
    for (const subject of ['_INBOX.abc', '_INBOX']) {
      expect(message(subject)).toBe(
        'Do not start with _INBOX: such subjects are other clients’ reply subjects.',
      );
    }
    expect(parseChannelInput({ channel_type: 'nats', config: { subject: 'alerts.$JS.x' } })).toMatchObject({
      config: { subject: 'alerts.$JS.x' },
    });
  });

  it('bounds secrets and tokens and keeps line breaks out of them', () => {
    const long = rejection({
      channel_type: 'webhook',
      config: { url: 'https://x.example/h', secret: 's'.repeat(257) },
    });
    expect(long.details).toEqual([{ path: 'config.secret', message: 'Enter at most 256 characters.' }]);
    const split = rejection({
      channel_type: 'ntfy',
      config: { url: 'https://ntfy.sh/t', token: 'a\r\nX-Evil: 1' },
    });
    expect(split.details).toEqual([
      { path: 'config.token', message: 'Use printable ASCII characters without spaces.' },
    ]);
  });

  it('wants the full ntfy topic URL, not the server alone', () => {
    expect(rejection({ channel_type: 'ntfy', config: { url: 'https://ntfy.sh/' } }).details).toEqual([
      { path: 'config.url', message: 'Enter the full topic URL, such as https://ntfy.sh/my-topic.' },
    ]);
  });

  it('says a missing body is required', () => {
    expect(rejection(undefined).message).toBe('request body is required');
  });
});

describe('checkChannelDestination', () => {
  const publicResolve = async () => [{ address: '93.184.216.34', family: 4 as const }];

  it('accepts a URL whose host resolves to public addresses', async () => {
    const input = parseChannelInput({
      channel_type: 'webhook',
      config: { url: 'https://hooks.example.com/x' },
    });
    await expect(
      checkChannelDestination(input, { allow: [], resolve: publicResolve }),
    ).resolves.toBeUndefined();
  });

  it('rejects a private destination at create, naming the address', async () => {
    const input = parseChannelInput({ channel_type: 'slack', config: { url: 'https://127.0.0.1:8443/x' } });
    const err = await checkChannelDestination(input, { allow: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const message =
      '127.0.0.1 is a loopback address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=127.0.0.1/32)';
    expect(err).toMatchObject({
      message: `config.url: ${message}`,
      details: [{ path: 'config.url', message }],
    });
  });

  it('rejects a host name that resolves to a private address', async () => {
    const input = parseChannelInput({
      channel_type: 'ntfy',
      config: { url: 'https://ntfy.lan.test/alerts' },
    });
    const resolve = async () => [{ address: '192.168.1.20', family: 4 as const }];
    await expect(checkChannelDestination(input, { allow: [], resolve })).rejects.toThrow(
      'config.url: ntfy.lan.test resolves to 192.168.1.20, a private address; Vigil sends to private or loopback addresses only if VIGIL_EGRESS_ALLOW allows them (e.g. VIGIL_EGRESS_ALLOW=192.168.1.20/32)',
    );
    await expect(checkChannelDestination(input, { allow: [], resolve, runtime: 'cloud' })).rejects.toThrow(
      '(deploy with -c vigil:egressAllow=192.168.1.20/32)',
    );
  });

  it('accepts a private destination inside the allow-list', async () => {
    const input = parseChannelInput({
      channel_type: 'ntfy',
      config: { url: 'https://ntfy.lan.test/alerts' },
    });
    const resolve = async () => [{ address: '192.168.1.20', family: 4 as const }];
    await expect(
      checkChannelDestination(input, { allow: ['192.168.0.0/16'], resolve }),
    ).resolves.toBeUndefined();
  });

  it('rejects a cloud metadata address even when allow-listed', async () => {
    const input = parseChannelInput({
      channel_type: 'discord',
      config: { url: 'https://169.254.169.254/x' },
    });
    await expect(checkChannelDestination(input, { allow: ['169.254.0.0/16'] })).rejects.toThrow(
      '169.254.169.254 is a cloud metadata address, which hands out cloud credentials; Vigil never sends to it, whatever VIGIL_EGRESS_ALLOW lists',
    );
  });

  it('rejects a host that does not resolve', async () => {
    const input = parseChannelInput({ channel_type: 'webhook', config: { url: 'https://nowhere.test/x' } });
    const err = await checkChannelDestination(input, { allow: [], resolve: async () => [] }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'config.url', message: 'could not resolve host nowhere.test' }],
    });
  });

  it('accepts http:// only when every address of the host is in the allow-list', async () => {
    const lan = async () => [{ address: '192.168.1.20', family: 4 as const }];
    const input = parseChannelInput({ channel_type: 'webhook', config: { url: 'http://nas.lan.test/hook' } });
    await expect(
      checkChannelDestination(input, { allow: ['192.168.1.0/24'], resolve: lan }),
    ).resolves.toBeUndefined();
    const literal = parseChannelInput({
      channel_type: 'ntfy',
      config: { url: 'http://127.0.0.1:8080/alerts' },
    });
    await expect(checkChannelDestination(literal, { allow: ['127.0.0.1/32'] })).resolves.toBeUndefined();
    const mixed = async () => [...(await lan()), { address: '93.184.216.34', family: 4 as const }];
    await expect(
      checkChannelDestination(input, { allow: ['192.168.1.0/24'], resolve: mixed }),
    ).rejects.toThrow('nas.lan.test resolves to 93.184.216.34, a public address; use https://');
  });

  it('refuses http:// to a public address, and takes the same URL over https://', async () => {
    const plain = parseChannelInput({ channel_type: 'slack', config: { url: 'http://hooks.example.com/x' } });
    const err = await checkChannelDestination(plain, { allow: ['0.0.0.0/8'], resolve: publicResolve }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [
        {
          path: 'config.url',
          message:
            'hooks.example.com resolves to 93.184.216.34, a public address; use https://, since http:// goes only to ranges VIGIL_EGRESS_ALLOW allows (your own machine or LAN)',
        },
      ],
    });
    const literal = parseChannelInput({ channel_type: 'discord', config: { url: 'http://93.184.216.34/x' } });
    await expect(checkChannelDestination(literal, { allow: [] })).rejects.toThrow(
      '93.184.216.34 is a public address; use https://',
    );
    const secure = parseChannelInput({
      channel_type: 'slack',
      config: { url: 'https://hooks.example.com/x' },
    });
    await expect(
      checkChannelDestination(secure, { allow: [], resolve: publicResolve }),
    ).resolves.toBeUndefined();
  });

  it('keeps a long host name short enough that the setting is still named within the detail bound', async () => {
    const host = `${'a'.repeat(60)}.lan.test`;
    const input = parseChannelInput({ channel_type: 'webhook', config: { url: `https://${host}/hook` } });
    const resolve = async () => [{ address: 'fd12:3456:789a:bcde:f012:3456:789a:bcde', family: 6 as const }];
    const err = await checkChannelDestination(input, { allow: [], resolve }).catch((e: unknown) => e);
    if (!(err instanceof ValidationError)) throw new Error('not refused');
    expect(err.details?.[0]?.message).toContain('VIGIL_EGRESS_ALLOW allows them');
    expect(err.details?.[0]?.message).toMatch(/^a{39}… resolves to fd12:/);
  });

  it('checks nothing for a nats channel, whose server is the operator’s', async () => {
    const input = parseChannelInput({ channel_type: 'nats', config: { subject: 'vigil.alerts' } });
    const resolve = async () => {
      throw new Error('a nats channel has no URL to resolve');
    };
    await expect(checkChannelDestination(input, { allow: [], resolve })).resolves.toBeUndefined();
  });
});
