import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsSubjectProblem, publishedSubject } from '../../domain/nats-subject.ts';
import type { Logger } from '../../platform/logger.ts';
import type { ChannelRecord } from '../channel-items.ts';
import type { Alert, SendOutcome } from '../ports.ts';
import { eventPayload } from './payload.ts';

/**
 * The nats channel: the state-change event (with `check_name`) published to the channel's subject, under its
 * tenant's root (VIGIL_NATS_PREFIX and the tenant id), on the operator's server (VIGIL_NATS_URL),
 * over one lazy connection per process shared by every tenant. The server is the operator's, not a
 * user's, so it does not pass the SSRF guard.
 */

type NatsChannel = Extract<ChannelRecord, { channel_type: 'nats' }>;

/** Publishes bytes to a subject and waits for the server to have them. */
export interface NatsPublisher {
  publish(subject: string, data: Uint8Array): Promise<SendOutcome>;
  /** The server's max_payload (bytes), once connected; undefined when unknown. */
  maxPayload?(): Promise<number | undefined>;
  close(): Promise<void>;
}

/** What the client is given: host:port servers and the credentials found in the URLs. */
export interface NatsServerOptions {
  servers: string[];
  user?: string;
  pass?: string;
  token?: string;
}

/** The error of every nats delivery while VIGIL_NATS_URL is empty. */
export const NO_NATS_SERVER = 'no NATS server configured (VIGIL_NATS_URL)';
const DEFAULT_PUBLISH_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Splits `nats://user:pass@host:port` URLs (or `nats://token@host`) into servers and credentials:
 * the client takes credentials as options, not in server URLs. The first URL with credentials wins.
 */
export function natsServerOptions(urls: readonly string[]): NatsServerOptions {
  const options: NatsServerOptions = { servers: [] };
  for (const raw of urls) {
    const url = new URL(raw);
    options.servers.push(url.port ? `${url.hostname}:${url.port}` : url.hostname);
    if (options.user !== undefined || options.token !== undefined || url.username === '') continue;
    const user = decodeURIComponent(url.username);
    if (url.password === '') options.token = user;
    else Object.assign(options, { user, pass: decodeURIComponent(url.password) });
  }
  return options;
}

/** The publish ran out of time: its message is already a whole sentence. */
class PublishTimeout extends Error {
  override name = 'PublishTimeout';
}

function errorText(err: unknown): string {
  if (err instanceof PublishTimeout) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  return `could not publish to the NATS server: ${message || 'unknown error'}`;
}

/** Runs `work`, failing with `message` once `ms` have passed (the work itself is not cancelled). */
async function within<T>(ms: number, message: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PublishTimeout(message)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A publisher over one shared connection, opened on first use and again after it closes. A
 * publish counts once a flush returns: the server has read it. A server that is down or silent
 * fails the attempt within `timeoutMs`.
 */
export function createNatsPublisher(deps: {
  natsUrls: readonly string[];
  logger: Logger;
  timeoutMs?: number;
}): NatsPublisher {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
  let current: Promise<NatsConnection> | undefined;

  function connection(): Promise<NatsConnection> {
    if (current) return current;
    const opening = connect({
      ...natsServerOptions(deps.natsUrls),
      name: 'vigil',
      timeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
    });
    current = opening;
    opening.then(
      (nc) => {
        void nc.closed().then((err) => {
          if (err) deps.logger.warn('NATS connection closed', { error: err });
          if (current === opening) current = undefined;
        });
      },
      () => {
        if (current === opening) current = undefined;
      },
    );
    return opening;
  }

  return {
    async publish(subject, data) {
      if (deps.natsUrls.length === 0) return { ok: false, status_code: null, error: NO_NATS_SERVER };
      try {
        const message = `the NATS server did not acknowledge within ${timeoutMs / 1000} s`;
        await within(timeoutMs, message, async () => {
          const nc = await connection();
          nc.publish(subject, data);
          await nc.flush();
        });
        return { ok: true, status_code: null, error: null };
      } catch (err) {
        return { ok: false, status_code: null, error: errorText(err) };
      }
    },
    async maxPayload() {
      if (deps.natsUrls.length === 0) return undefined;
      const nc = await connection().catch(() => undefined);
      return nc?.info?.max_payload;
    },
    async close() {
      const opening = current;
      current = undefined;
      if (!opening) return;
      const nc = await opening.catch(() => undefined);
      await nc?.close();
    },
  };
}

/**
 * Publishes the state-change event JSON with `check_name` (payload.ts) to the channel's subject under its tenant's root,
 * `<prefix>.<tenant id>.<subject>`. A subject stored before `$` and `_INBOX` subjects were refused
 * at create is never published: the delivery fails saying why.
 */
export async function sendNats(
  publisher: NatsPublisher,
  prefix: string,
  channel: NatsChannel,
  alert: Alert,
): Promise<SendOutcome> {
  const { subject } = channel.config;
  const problem = natsSubjectProblem(subject);
  if (problem) {
    const error = `the subject ${subject} is not published. ${problem} Replace the channel with one on another subject.`;
    return { ok: false, status_code: null, error };
  }
  const data = eventPayload(alert);
  return publisher.publish(publishedSubject(prefix, channel.tenant_id, subject), data);
}
