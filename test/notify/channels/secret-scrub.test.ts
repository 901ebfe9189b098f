import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelSenders } from '../../../lib/notify/channels/index.ts';
import { createFakeClock } from '../../../lib/platform/clock.ts';
import { silentLogger } from '../../../lib/platform/logger.ts';
import { channel, sampleAlert } from './alert-fixture.ts';

/**
 * A provider's error answer may echo what it was sent (the token, the URL's secret path): every
 * channel's outcome comes back with its `secrets` and destination URLs replaced by ********
 * (lib/notify/channels/index.ts), since the error is stored in the delivery log and shown.
 */

let server: Server;
let origin: string;

beforeAll(async () => {
  // Answers 401 echoing the request line and its Authorization header, as careless APIs do.
  server = createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'text/plain' });
    res.end(`unauthorized: ${req.method} ${req.url} with ${req.headers.authorization ?? 'no token'}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

const senders = () =>
  createChannelSenders({
    egressAllow: ['127.0.0.0/8'],
    natsUrls: [],
    natsPrefix: 'vigil',
    logger: silentLogger,
    clock: createFakeClock(),
  });

describe('a channel’s secrets never come back in an outcome', () => {
  it('replaces a token an error answer echoes', async () => {
    const token = 'tk_echoed_by_the_provider_42';
    const outcome = await senders().send(channel('ntfy', { url: `${origin}/alerts`, token }), sampleAlert());
    expect(outcome.status_code).toBe(401);
    expect(outcome.error).not.toContain(token);
    expect(outcome.error).toContain('with Bearer ********');
  });

  it('replaces a URL’s secret path an error answer echoes', async () => {
    const path = '/services/T000/B000/XXXXsecretXXXX';
    const outcome = await senders().send(channel('slack', { url: `${origin}${path}` }), sampleAlert());
    expect(outcome.status_code).toBe(401);
    expect(outcome.error).not.toContain('XXXXsecretXXXX');
    expect(outcome.error).toContain('unauthorized: POST ********');
  });
});
