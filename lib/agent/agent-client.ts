import { Agent, errors, request } from 'undici';
import type * as z from 'zod';
import {
  AGENT_PATHS,
  heartbeatAnswerSchema,
  type LeaseRequest,
  MAX_WAIT_SECONDS,
  type ReadJob,
  type ResultEntry,
  type ResultsAnswer,
  readLeaseAnswer,
  resultsAnswerSchema,
} from './protocol.ts';

/** Why an exchange with Vigil failed, for the logs and the `kind` label of the error metric. */
export type FailureKind = 'network' | 'auth' | 'rejected' | 'server' | 'protocol';

/** A failed exchange with Vigil. `status` is the HTTP status when there was an answer. */
export class AgentRequestError extends Error {
  override name = 'AgentRequestError';
  readonly kind: FailureKind;
  readonly status: number | undefined;
  /** The server's Retry-After, in ms. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    kind: FailureKind,
    status?: number,
    retryAfterMs?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.kind = kind;
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

export interface AgentClientOptions {
  /** Vigil's base URL (https, or http to loopback or with --allow-http). */
  url: URL;
  /** The location key (`vlk_…`): sent as a Bearer token, never logged. */
  key: string;
  userAgent: string;
}

export interface AgentClient {
  lease(body: LeaseRequest, signal: AbortSignal): Promise<ReadJob[]>;
  postResults(entries: ResultEntry[], signal: AbortSignal): Promise<ResultsAnswer>;
  heartbeat(version: string, signal: AbortSignal): Promise<z.infer<typeof heartbeatAnswerSchema>>;
  close(): Promise<void>;
}

/** The largest answer read: a lease of 100 jobs with CA bundles stays far below. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** Connect and answer bounds: a lease answers within its wait, plus this margin. */
const CONNECT_TIMEOUT_MS = 10_000;
const ANSWER_MARGIN_MS = 15_000;

/**
 * Vigil's agent routes over one kept-alive undici pool. Each call is one attempt: the agent's
 * loops decide when to try again (lib/agent/backoff.ts), not undici's RetryAgent, because their
 * retries are unbounded, counted in the metrics, stopped at SIGTERM, and the results loop builds a
 * fresh batch (new results joined, a refused batch split) for each attempt, where a RetryAgent
 * would resend the same body a bounded number of times.
 */
export function createAgentClient(options: AgentClientOptions): AgentClient {
  const pool = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: MAX_WAIT_SECONDS * 1000 + ANSWER_MARGIN_MS,
    bodyTimeout: ANSWER_MARGIN_MS,
  });
  const base = options.url.href.replace(/\/+$/, '');

  const post = async (path: string, body: unknown, signal: AbortSignal): Promise<unknown> => {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(`${base}${path}`, {
        method: 'POST',
        dispatcher: pool,
        signal,
        headers: {
          authorization: `Bearer ${options.key}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': options.userAgent,
        },
        body: JSON.stringify(body),
      });
    } catch (err) {
      throw new AgentRequestError(`${path}: ${networkReason(err)}`, 'network', undefined, undefined, {
        cause: err,
      });
    }
    const text = await readBounded(res.body, path);
    if (res.statusCode >= 200 && res.statusCode < 300) {
      if (text === '') return undefined;
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new AgentRequestError(
          `${path}: the answer is not JSON`,
          'protocol',
          res.statusCode,
          undefined,
          {
            cause: err,
          },
        );
      }
    }
    const retryAfter = retryAfterMs(res.headers['retry-after']);
    const detail = errorCode(text);
    const message = `${path}: answered ${res.statusCode}${detail ? ` ${detail}` : ''}`;
    if (res.statusCode === 401 || res.statusCode === 403) {
      throw new AgentRequestError(
        `${message} (is the location key right, and not revoked?)`,
        'auth',
        res.statusCode,
      );
    }
    const retried = res.statusCode === 408 || res.statusCode === 429 || res.statusCode >= 500;
    throw new AgentRequestError(message, retried ? 'server' : 'rejected', res.statusCode, retryAfter);
  };

  const parsed = <T>(schema: z.ZodType<T>, path: string, body: unknown): T => {
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    throw new AgentRequestError(`${path}: unexpected answer: ${result.error.issues[0]?.message}`, 'protocol');
  };

  return {
    async lease(body, signal) {
      const answer = await post(AGENT_PATHS.lease, body, signal);
      try {
        return readLeaseAnswer(answer);
      } catch (err) {
        throw new AgentRequestError(
          `${AGENT_PATHS.lease}: unexpected answer`,
          'protocol',
          undefined,
          undefined,
          {
            cause: err,
          },
        );
      }
    },
    async postResults(entries, signal) {
      return parsed(
        resultsAnswerSchema,
        AGENT_PATHS.results,
        await post(AGENT_PATHS.results, entries, signal),
      );
    },
    async heartbeat(version, signal) {
      const answer = await post(AGENT_PATHS.heartbeat, { version }, signal);
      return parsed(heartbeatAnswerSchema, AGENT_PATHS.heartbeat, answer);
    },
    // Called once every loop has ended: nothing of value is in flight any more.
    close: () => pool.destroy(),
  };
}

async function readBounded(body: AsyncIterable<Buffer>, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) throw new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`);
      chunks.push(chunk);
    }
  } catch (err) {
    throw new AgentRequestError(`${path}: ${networkReason(err)}`, 'network', undefined, undefined, {
      cause: err,
    });
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An error answer's `code` ({error, code}: docs/api.md), if it has one. */
function errorCode(text: string): string | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'code' in body && typeof body.code === 'string') {
      return body.code.slice(0, 100);
    }
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return undefined;
}

/** Retry-After in seconds (the only form Vigil sends), as ms; undefined otherwise. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

function networkReason(err: unknown): string {
  if (err instanceof errors.RequestAbortedError || (err instanceof Error && err.name === 'AbortError')) {
    return 'stopped';
  }
  if (err instanceof Error) {
    const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
    return code ? `${code} (${err.message})` : err.message;
  }
  return String(err);
}
