import { describe, expect, it } from 'vitest';
import { parseAgentArgs } from '../../lib/agent/agent-options.ts';

const KEY = 'vlk_Test0Location0Key0For0The0Agent0Tests1';

describe('vigil agent options', () => {
  it('takes the key from --key-file, --key, or $VIGIL_LOCATION_KEY, and the URL from --url or $VIGIL_URL', () => {
    expect(
      parseAgentArgs(['--url', 'https://vigil.example.com', '--key-file', '/run/key'], {}),
    ).toMatchObject({
      url: new URL('https://vigil.example.com'),
      key: { file: '/run/key' },
      concurrency: 10,
      allowPrivate: true,
    });
    expect(parseAgentArgs(['--key', KEY], { VIGIL_URL: 'https://v.example.com' })).toMatchObject({
      key: { key: KEY },
    });
    expect(
      parseAgentArgs([], { VIGIL_URL: 'https://v.example.com', VIGIL_LOCATION_KEY: ` ${KEY}\n` }),
    ).toMatchObject({ key: { key: KEY } });
  });

  it('refuses what cannot work before any request', () => {
    const refused =
      (args: string[], env: Record<string, string> = {}) =>
      () =>
        parseAgentArgs(args, env);

    expect(refused(['--url', 'https://v.example.com'])).toThrow(/location key is required/);
    expect(refused(['--url', 'https://v.example.com', '--key', 'vgl_notalocationkey0000000000'])).toThrow(
      /vlk_/,
    );
    expect(refused(['--url', 'https://v.example.com', '--key', KEY, '--key-file', '/k'])).toThrow(/not both/);
    expect(refused(['--url', 'http://vigil.lan:8080', '--key', KEY])).toThrow(/clear text/);
    expect(refused(['--url', 'https://user:pw@v.example.com', '--key', KEY])).toThrow(/credentials/);
    expect(refused(['--url', 'https://v.example.com', '--key', KEY, '--concurrency', '0'])).toThrow(
      /at least 1/,
    );
    expect(refused(['--url', 'https://v.example.com', '--key', KEY, '--bogus'])).toThrow();
  });

  it('lets http reach this host, or anywhere with --allow-http', () => {
    expect(parseAgentArgs(['--url', 'http://127.0.0.1:8080', '--key', KEY], {})).toMatchObject({});
    expect(parseAgentArgs(['--url', 'http://[::1]:8080', '--key', KEY], {})).toMatchObject({});
    expect(
      parseAgentArgs(['--url', 'http://vigil.lan:8080', '--key', KEY, '--allow-http'], {}),
    ).toMatchObject({
      url: new URL('http://vigil.lan:8080'),
    });
  });

  it('probes public addresses only with --public-only, and serves metrics only when asked', () => {
    const options = parseAgentArgs(['--url', 'https://v.example.com', '--key', KEY, '--public-only'], {});
    expect(options).toMatchObject({ allowPrivate: false });
    expect(options).not.toHaveProperty('metrics');
    expect(
      parseAgentArgs(['--url', 'https://v.example.com', '--key', KEY, '--metrics-port', '9464'], {}),
    ).toMatchObject({ metrics: { host: '127.0.0.1', port: 9464 } });
  });

  it("runs browser checks with Debian's Chromium two at a time unless told otherwise", () => {
    const base = ['--url', 'https://v.example.com', '--key', KEY];
    expect(parseAgentArgs(base, {})).toMatchObject({
      browser: { runs: 2, chromiumPath: '/usr/bin/chromium' },
    });
    expect(
      parseAgentArgs(base, { VIGIL_BROWSER_RUNS: '4', VIGIL_CHROMIUM_PATH: '/opt/chrome/chrome' }),
    ).toMatchObject({ browser: { runs: 4, chromiumPath: '/opt/chrome/chrome' } });
    expect(
      parseAgentArgs([...base, '--browser-runs', '1', '--chromium', '/usr/lib/chromium/chromium'], {
        VIGIL_BROWSER_RUNS: '4',
      }),
    ).toMatchObject({ browser: { runs: 1, chromiumPath: '/usr/lib/chromium/chromium' } });
    expect(() => parseAgentArgs([...base, '--browser-runs', '33'], {})).toThrow(/32/);
    expect(() => parseAgentArgs(base, { VIGIL_BROWSER_RUNS: 'many' })).toThrow(/VIGIL_BROWSER_RUNS/);
  });
});
