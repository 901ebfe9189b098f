import type { NatsConnection } from '@nats-io/transport-node';
import * as z from 'zod';
import { natsSubjectProblem, publishedSubject } from '../../domain/formats.ts';
import type { Logger } from '../../platform/logger.ts';
import { natsSubject } from '../../providers/config-fields.ts';
import type { Alert, Digest, SendOutcome } from '../items/ports.ts';
import { type ChannelOf, type ChannelSendDeps, defineChannel } from './definition.ts';
import { digestPayload } from './digest-message.ts';
import { eventPayload } from './payload.ts';
import type { NatsPublisher } from './send-ports.ts';

/**
 * The nats channel: the state-change event (with `check_name`) published to the channel's subject, under its
 * tenant's root (VIGIL_NATS_PREFIX and the tenant id), on the operator's server (VIGIL_NATS_URL),
 * over one lazy connection per process shared by every tenant. The server is the operator's, not a
 * user's, so it does not pass the SSRF guard.
 */

const storedConfig = z.object({ subject: z.string() });
type NatsChannel = ChannelOf<z.output<typeof storedConfig>>;

/** NATS's default max_payload, when the server did not say. */
const NATS_DEFAULT_MAX_PAYLOAD = 1024 * 1024;

export type { NatsPublisher } from './send-ports.ts';

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
    // The client is loaded with the first connection, not with this module: only a nats channel's
    // send needs it, and the cloud leaves it out of the notifier's bundle (infra/node-function.ts
    // `lazyModules`), so this import is its only way in.
    const opening = import('@nats-io/transport-node').then(({ connect }) =>
      connect({
        ...natsServerOptions(deps.natsUrls),
        name: 'vigil',
        timeout: Math.min(CONNECT_TIMEOUT_MS, timeoutMs),
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
      }),
    );
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
async function sendNats(
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

/** A digest part: the JSON payload, split into as many messages as `maxPayload` bytes each require. */
function natsDigestMessages(digest: Digest, maxPayload: number): Buffer[] {
  const encode = (events: Digest['events'], chunk?: { chunk: number; chunks: number }) =>
    Buffer.from(JSON.stringify({ ...digestPayload(digest, events), ...chunk }), 'utf8');
  for (let chunks = 1; chunks <= digest.events.length + 1; chunks *= 2) {
    const size = Math.ceil(digest.events.length / chunks);
    const messages = Array.from({ length: chunks }, (_, i) =>
      encode(
        digest.events.slice(i * size, (i + 1) * size),
        chunks > 1 ? { chunk: i + 1, chunks } : undefined,
      ),
    ).filter((_, i) => i === 0 || i * size < digest.events.length);
    if (messages.every((m) => m.length <= maxPayload)) return messages;
  }
  return [];
}

async function sendNatsDigest(
  deps: ChannelSendDeps,
  channel: NatsChannel,
  digest: Digest,
): Promise<SendOutcome> {
  const problem = natsSubjectProblem(channel.config.subject);
  if (problem) return { ok: false, status_code: null, error: `the subject is not published. ${problem}` };
  const max = (await deps.nats.maxPayload?.()) ?? NATS_DEFAULT_MAX_PAYLOAD;
  const subject = publishedSubject(deps.natsPrefix, channel.tenant_id, channel.config.subject);
  for (const message of natsDigestMessages(digest, max)) {
    const outcome = await deps.nats.publish(subject, message);
    if (!outcome.ok) return outcome;
  }
  return { ok: true, status_code: null, error: null };
}

export const natsChannel = defineChannel({
  label: 'NATS',
  templates: false,
  input: z.strictObject({ subject: natsSubject }),
  stored: storedConfig,
  view: z.strictObject({
    subject: z.string().meta({ description: 'The subject as given, under the tenant’s root' }),
    published_subject: z
      .string()
      .nullable()
      .meta({
        description:
          'Read-only: the full subject events are published to, `<VIGIL_NATS_PREFIX>.<tenant id>.<subject>`; ' +
          'subscribe to it. null for a subject stored before `$` and `_INBOX` subjects were refused: ' +
          'its deliveries fail',
      }),
  }),
  secrets: [],
  // Subjects are no secret: read-only keys see them, with the full subject to subscribe to.
  present: ({ subject }, tenantId, options) => ({
    config: {
      subject,
      published_subject: natsSubjectProblem(subject)
        ? null
        : publishedSubject(options.natsPrefix, tenantId, subject),
    },
  }),
  // The server is the operator's (VIGIL_NATS_URL), not a user's: nothing for the SSRF guard.
  destinations: () => [],
  send: (deps, channel, alert) => sendNats(deps.nats, deps.natsPrefix, channel, alert),
  sendDigest: sendNatsDigest,
});
