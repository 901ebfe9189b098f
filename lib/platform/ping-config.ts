import * as z from 'zod';
import { positiveBucket } from './bulk-config.ts';

/**
 * The bounds of ping URLs (docs/heartbeats.md "The ping log's bounds"), parsed with the rest of the
 * environment by config.ts (the only reader of process.env), kept here so that file stays small.
 */
export const pingEnv = {
  VIGIL_PING_RATE_LIMIT_RPS: z.coerce.number().min(0).max(1_000_000).default(1),
  VIGIL_PING_RATE_LIMIT_BURST: z.coerce.number().int().min(0).max(1_000_000).default(20),
  VIGIL_PING_LOG_KEEP: z.coerce.number().int().min(1).max(1000).default(100),
  VIGIL_PING_BODY_BYTES_PER_DAY: z.coerce.number().int().min(0).max(1_000_000_000_000).default(10_000_000),
  VIGIL_PING_KEY_GUESS_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(100),
  VIGIL_PING_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url), 'must be an http(s) URL')
    .optional(),
};

export interface PingSettings {
  /**
   * The token bucket of each ping URL (a token, or a slug's check): at most the per-key bucket's
   * rate and burst; `undefined` when either is 0 or the per-key limit is off.
   */
  pingRateLimit: { perSecond: number; burst: number } | undefined;
  /** The pings each push check's log keeps: older ones are deleted as new ones arrive. */
  pingLogKeep: number;
  /** Bytes of ping bodies a tenant may store a day (a token bucket); past it bodies are cut; 0: no budget. */
  pingBodyBytesPerDay: number;
  /** Wrong slugs per ping key per minute, from every address together; 0: not limited. */
  pingKeyGuessesPerMinute: number;
  /**
   * The origin the ping URLs shown to users are on, when pings have an ingress of their own (the
   * cloud's ping function URL, docs/aws.md "Ping URLs"); else VIGIL_PUBLIC_URL's or the request's.
   */
  pingUrl: string | undefined;
}

export function pingSettings(
  e: z.infer<z.ZodObject<typeof pingEnv>>,
  keyLimit: { perSecond: number; burst: number } | undefined,
): PingSettings {
  return {
    // Never above an API key's bucket, and off with it.
    pingRateLimit:
      keyLimit &&
      positiveBucket(
        Math.min(e.VIGIL_PING_RATE_LIMIT_RPS, keyLimit.perSecond),
        Math.min(e.VIGIL_PING_RATE_LIMIT_BURST, keyLimit.burst),
      ),
    pingLogKeep: e.VIGIL_PING_LOG_KEEP,
    pingBodyBytesPerDay: e.VIGIL_PING_BODY_BYTES_PER_DAY,
    pingKeyGuessesPerMinute: e.VIGIL_PING_KEY_GUESS_LIMIT,
    pingUrl: e.VIGIL_PING_URL === undefined ? undefined : new URL(e.VIGIL_PING_URL).origin,
  };
}
