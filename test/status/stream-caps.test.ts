import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SseConnection } from './stream-client.ts';
import { type StreamDriver, streamRuntimes } from './stream-drivers.ts';

// functions/status-stream.ts builds its module-scope handler from the Lambda runtime's global.
vi.hoisted(() => {
  Object.assign(globalThis, {
    awslambda: {
      streamifyResponse: (handler: unknown) => handler,
      HttpResponseStream: { from: (stream: unknown) => stream },
    },
  });
});

const CAPS = { VIGIL_STREAMS_PER_KEY: '2', VIGIL_STREAMS_PER_TENANT: '3' };

describe.each(streamRuntimes)(
  'open status streams per key and per tenant ($runtime runtime)',
  ({ start }) => {
    let d: StreamDriver;
    let secondKey: string;
    let thirdKey: string;
    const streams: SseConnection[] = [];

    const open = async (key: string) => {
      const stream = await d.open({ authorization: `Bearer ${key}` });
      streams.push(stream);
      return stream;
    };
    const newKey = async (label: string, readOnly: boolean) => {
      const res = await d.api('POST', '/v1/auth/keys', d.adminKey, { label, is_read_only: readOnly });
      expect(res.status).toBe(201);
      return res.body.key as string;
    };
    /** A refused open answers at once with a JSON error; an accepted one is closed again. */
    const expectRefused = async (key: string) => {
      const stream = await open(key);
      expect(stream.status).toBe(429);
      expect(stream.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      await stream.ended;
      const res = await d.api('GET', '/v1/status/stream', key);
      expect(res).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED', error: expect.any(String) } });
    };

    beforeAll(async () => {
      d = await start({ env: CAPS, heartbeatMs: 200 });
      secondKey = await newKey('dashboard', true);
      thirdKey = await newKey('wallboard', true);
    });
    afterAll(async () => {
      for (const stream of streams) stream.close();
      await d.close();
    });

    it('answers 429 RATE_LIMITED with Retry-After to the stream of a key past its cap', async () => {
      const first = await open(d.adminKey);
      const second = await open(d.adminKey);
      expect([first.status, second.status]).toEqual([200, 200]);
      await expectRefused(d.adminKey);
    });

    it('counts every key of the tenant against the tenant cap', async () => {
      const other = await open(secondKey);
      expect(other.status).toBe(200);
      // Two of the admin key and one of the second key: the tenant's three.
      await expectRefused(thirdKey);
      await expectRefused(secondKey);
    });

    it('frees the slot when a stream ends', async () => {
      const held = streams.filter((s) => s.status === 200);
      held[0]?.close();
      // The server hears of the close a moment later; until then the key is still at its cap.
      await expect
        .poll(
          async () => {
            const stream = await open(d.adminKey);
            if (stream.status !== 200) await stream.ended;
            return stream.status;
          },
          { timeout: 5000, interval: 100 },
        )
        .toBe(200);
    });

    it('replaces the previous stream of the same client, which ends, instead of holding two slots', async () => {
      // A console page reloaded: the server may not have heard that the page left its stream (a
      // function URL never tells), and the new page's stream names the same client.
      const { rawKey } = await d.app.tenants.createTenant({ name: 'Reloads', email: 'reload@example.test' });
      const browser = {
        authorization: `Bearer ${rawKey}`,
        'x-vigil-stream-client': 'browser-0123456789abcdef',
      };
      const openAs = async (headers: Record<string, string>) => {
        const stream = await d.open(headers);
        streams.push(stream);
        return stream;
      };
      const left = await openAs(browser);
      const other = await open(rawKey);
      expect([left.status, other.status]).toEqual([200, 200]);

      const again = await openAs(browser);
      expect(again.status).toBe(200);
      await left.ended;
      // Both slots of the key are still held: by the new stream and the other one.
      await expectRefused(rawKey);
    });

    it("does not count another tenant's streams", async () => {
      const other = await d.app.tenants.createTenant({ name: 'Other', email: 'other@example.test' });
      const stream = await open(other.rawKey);
      expect(stream.status).toBe(200);
    });
  },
);
