import { afterEach, describe, expect, it, vi } from 'vitest';
import { followStatusStream } from '../../web/src/live/status-stream.ts';

/** The console's stream client on its own (web/src/live/status-stream.ts), over a fetch the test answers. */

afterEach(() => {
  vi.useRealTimers();
});

describe('the console status stream client', () => {
  it('waits the Retry-After a 429 names before opening again, not its short backoff', async () => {
    vi.useFakeTimers();
    const calls: Record<string, string>[] = [];
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      calls.push({ ...(init?.headers as Record<string, string>) });
      return new Response(JSON.stringify({ error: 'too many open streams', code: 'RATE_LIMITED' }), {
        status: 429,
        headers: { 'retry-after': '10', 'content-type': 'application/json' },
      });
    });
    const states: string[] = [];
    const stop = followStatusStream({
      credential: { kind: 'key', key: 'vgl_test' },
      client: 'browser-0123456789abcdef',
      fetch: fetch as typeof globalThis.fetch,
      onChange: () => undefined,
      onState: (state) => states.push(state),
      onUnauthorized: () => undefined,
    });
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.['X-Vigil-Stream-Client']).toBe('browser-0123456789abcdef');
      await vi.advanceTimersByTimeAsync(9_000);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toHaveLength(2);
      expect(states).toContain('reconnecting');
    } finally {
      stop();
    }
  });

  it('sends no Authorization header and no CSRF token for a cookie session, only the cookie', async () => {
    const seen: { headers: Record<string, string>; credentials: string | undefined }[] = [];
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push({
        headers: { ...(init?.headers as Record<string, string>) },
        credentials: init?.credentials,
      });
      return new Response('', { status: 401 });
    });
    const unauthorized = new Promise<void>((resolve) => {
      followStatusStream({
        credential: { kind: 'cookie', csrfToken: 'csrf-of-the-session' },
        fetch: fetch as typeof globalThis.fetch,
        onChange: () => undefined,
        onState: () => undefined,
        onUnauthorized: resolve,
      });
    });
    await unauthorized;
    expect(seen).toHaveLength(1);
    expect(seen[0]?.credentials).toBe('same-origin');
    expect(Object.keys(seen[0]?.headers ?? {}).map((h) => h.toLowerCase())).toEqual(['accept']);
  });
});
