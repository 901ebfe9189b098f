import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTransport } from '../../lib/egress/egress.ts';
import { http1Request } from '../../lib/egress/http1-client.ts';
import { undiciRequest } from '../../lib/egress/undici-client.ts';
import { systemClock } from '../../lib/platform/clock.ts';
import { loadConfig } from '../../lib/platform/config.ts';
import { runHttpProbe } from '../../lib/probes/http-probe.ts';
import { probeTransport } from '../../lib/probes/probe-transport.ts';
import { startHttpServer, type TestHttpServer } from './support/http-server.ts';

let server: TestHttpServer;

beforeAll(async () => {
  server = await startHttpServer();
});

afterAll(async () => {
  await server.close();
});

describe('the http probes transport', () => {
  it('sends every hop through the transport it is given', async () => {
    const sent: string[] = [];
    const transport: HttpTransport = (req) => {
      sent.push(`${req.method} ${req.url.pathname}`);
      return http1Request(req);
    };

    const outcome = await runHttpProbe(
      { check_type: 'http', target_url: `${server.origin}/ok`, timeout_ms: 2000 },
      { clock: systemClock, allowPrivate: true, transport },
    );

    expect(outcome).toMatchObject({ success: true, status_code: 200 });
    expect(sent).toEqual(['GET /ok']);
  });

  it('maps VIGIL_PROBE_HTTP_CLIENT to the hand-written client or undici', () => {
    expect(probeTransport('http1')).toBe(http1Request);
    expect(probeTransport('undici')).toBe(undiciRequest);
  });

  it('takes undici in the local runtime and refuses it in the cloud, naming the variable', () => {
    const env = { VIGIL_PROBE_HTTP_CLIENT: 'undici' };

    expect(loadConfig('local', env).probeHttpClient).toBe('undici');
    expect(loadConfig('cloud', {}).probeHttpClient).toBe('http1');
    expect(() => loadConfig('cloud', env)).toThrow(
      /VIGIL_PROBE_HTTP_CLIENT: undici is a diagnostic of the local runtime; the cloud probes with http1/,
    );
  });
});
