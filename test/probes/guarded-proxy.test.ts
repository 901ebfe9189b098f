import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedProxy, startGuardedProxy } from '../../lib/probes/browser/guarded-proxy.ts';

/**
 * The forward proxy a browser check's Chromium sends everything through: it judges each host with
 * the SSRF guard before a byte leaves, in every form the audit uses (dotted, decimal, hex,
 * IPv4-mapped IPv6), for plain requests, CONNECT tunnels and upgrades alike.
 */

let target: Server;
let targetPort: number;
let proxy: GuardedProxy;

beforeAll(async () => {
  target = createServer((_req, res) => res.end('reached'));
  target.listen(0, '127.0.0.1');
  await once(target, 'listening');
  targetPort = (target.address() as AddressInfo).port;
  proxy = await startGuardedProxy({ allowPrivate: true });
});
afterAll(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
});

/** Sends `head` to the proxy and reads what it answers until it closes or the status line is in. */
async function ask(head: string, via = proxy): Promise<string> {
  const port = Number(new URL(via.url).port);
  const socket = connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  socket.write(head);
  let answer = '';
  for await (const chunk of socket) {
    answer += String(chunk);
    if (/\r\n\r\n/.test(answer)) break;
  }
  socket.destroy();
  return answer.split('\r\n')[0] ?? '';
}

describe('the guarded proxy', () => {
  it.each([
    [
      'GET http://169.254.169.254/latest/meta-data/ HTTP/1.1\r\nHost: 169.254.169.254\r\n\r\n',
      '169.254.169.254',
    ],
    ['GET http://2852039166/latest/ HTTP/1.1\r\nHost: 2852039166\r\n\r\n', '169.254.169.254'],
    ['GET http://0xa9fea9fe/latest/ HTTP/1.1\r\nHost: 0xa9fea9fe\r\n\r\n', '169.254.169.254'],
    ['GET http://[::ffff:169.254.169.254]/latest/ HTTP/1.1\r\nHost: x\r\n\r\n', '[::ffff:a9fe:a9fe]'],
    ['CONNECT 169.254.169.254:443 HTTP/1.1\r\nHost: 169.254.169.254:443\r\n\r\n', '169.254.169.254'],
    ['CONNECT [::ffff:169.254.169.254]:443 HTTP/1.1\r\nHost: x\r\n\r\n', '[::ffff:169.254.169.254]'],
    [
      'GET ws://169.254.169.254/socket HTTP/1.1\r\nHost: 169.254.169.254\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      '169.254.169.254',
    ],
  ])('refuses %j as cloud metadata', async (head, host) => {
    const status = await ask(head);

    expect(status).toBe('HTTP/1.1 403 Forbidden');
    expect(proxy.takeRefusals()).toEqual([
      { host, reason: expect.stringMatching(/is a cloud metadata address$/) },
    ]);
  });

  it('refuses loopback and private addresses when private targets are not allowed', async () => {
    const strict = await startGuardedProxy({ allowPrivate: false });
    try {
      const loopback = await ask(`GET http://127.0.0.1:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`, strict);
      const tunnel = await ask('CONNECT 10.1.2.3:443 HTTP/1.1\r\nHost: x\r\n\r\n', strict);

      expect([loopback, tunnel]).toEqual(['HTTP/1.1 403 Forbidden', 'HTTP/1.1 403 Forbidden']);
      expect(strict.takeRefusals().map((r) => r.reason)).toEqual([
        'destination 127.0.0.1 is a loopback address',
        'destination 10.1.2.3 is a private address',
      ]);
    } finally {
      await strict.close();
    }
  });

  it('forwards a request and opens a tunnel to an allowed address', async () => {
    const plain = await ask(`GET http://127.0.0.1:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`);
    const tunnel = await ask(`CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`);

    expect(plain).toBe('HTTP/1.1 200 OK');
    expect(tunnel).toBe('HTTP/1.1 200 Connection Established');
    expect(proxy.takeRefusals()).toEqual([]);
  });

  // Chromium drops connections it no longer wants (its own background requests, a cancelled load)
  // with a reset; that must not end the child the proxy runs in (CI saw "read ECONNRESET" end a run).
  it.each([
    ['a refused tunnel', 'CONNECT 169.254.169.254:443 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['an allowed tunnel', () => `CONNECT 127.0.0.1:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`],
    [
      'a refused upgrade',
      'GET ws://169.254.169.254/s HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    ],
    [
      'a plain request',
      () => `POST http://127.0.0.1:${targetPort}/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab`,
    ],
  ])('survives a client that resets %s mid-way, and answers the next', async (_name, head) => {
    const port = Number(new URL(proxy.url).port);
    const text = typeof head === 'string' ? head : head();
    for (const waitMs of [0, 1, 5, 20]) {
      const socket = connect({ host: '127.0.0.1', port });
      await once(socket, 'connect');
      socket.write(text);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      socket.resetAndDestroy();
      await once(socket, 'close');
    }
    const after = await ask(`GET http://127.0.0.1:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`);

    expect(after).toBe('HTTP/1.1 200 OK');
    proxy.takeRefusals();
  });
});
