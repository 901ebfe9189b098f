import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { Arrival } from './alert-stats.ts';
import { onParentMessage, reply } from './child.ts';

/**
 * Child process: the HTTPS webhook receiver of the alerts scenario, on 127.0.0.1 with a
 * certificate of the run's test CA. Stamps every request when its body has been read, verifies the
 * signature the way a receiver should (constant time), answers 204, and hands the arrivals to the
 * parent in batches (after the stamp, so IPC never delays one).
 */

const setup = z.object({ type: z.literal('setup'), key: z.string(), cert: z.string(), secret: z.string() });
const message = z.discriminatedUnion('type', [setup, z.object({ type: z.literal('stop') })]);

const now = () => performance.timeOrigin + performance.now();
let pending: Arrival[] = [];
let flushing = false;

const flush = () => {
  flushing = false;
  const batch = pending;
  pending = [];
  if (batch.length > 0) reply({ type: 'arrivals', arrivals: batch });
};

function verify(secret: string, body: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

onParentMessage(message, async (m) => {
  if (m.type === 'stop') process.exit(0);
  if (m.type !== 'setup') return;
  const server = createServer({ key: m.key, cert: m.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const readAtMs = now();
      const body = Buffer.concat(chunks);
      const delivery = req.headers['x-service-delivery'];
      pending.push({
        readAtMs,
        delivery: typeof delivery === 'string' ? delivery : undefined,
        body: body.toString('utf8'),
        signatureValid: verify(m.secret, body, req.headers['x-service-signature']),
      });
      res.writeHead(204).end();
      if (!flushing) {
        flushing = true;
        setTimeout(flush, 5);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 1024, () => resolve()));
  reply({ type: 'ready', url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
