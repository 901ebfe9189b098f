import type { ActionJob } from '../actions/jobs.ts';
import type { ArtifactStore } from '../checks/probing.ts';
import type { EgressSettings } from '../egress/egress.ts';
import type { ProbingDeps } from '../locations/compose-probing.ts';
import type { LegacyStreamSettings } from '../mcp/legacy-sse.ts';
import type { EmailTransport } from '../notify/email-transport.ts';
import type { SmsTransport } from '../notify/sms-transport.ts';
import type { Clock } from '../platform/clock.ts';
import type { Config } from '../platform/config.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Logger } from '../platform/logger.ts';
import type { RateLimiter } from '../platform/rate-limiter.ts';
import type { Prober } from '../probes/types.ts';
import type { StatusStreamSettings } from '../status/stream-service.ts';
import type { Table } from '../store/table.ts';
import type { StreamSlots } from '../streams/stream-slots.ts';
import type { NotifyQueueJob } from './list.ts';

/** What every runtime provides to the core (lib/app.ts): its ports, which the features are composed over. */
export interface CoreDeps extends Pick<ProbingDeps, 'probeSoon'> {
  table: Table;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** Probe settings: extra trusted CAs (tests), the http probes' transport (the local runtime's choice). */
  probe?: ProbingDeps['probe'];
  /** Where probes run; default on the event loop (the local runtime may hand them to probe threads). */
  prober?: Prober;
  /** How GET /v1/status/stream follows new events; default: it polls the feed (works in any process). */
  statusStream?: StatusStreamSettings;
  /** Where the per-key and per-address rate limits are kept; default this process's memory. */
  rateLimiter?: RateLimiter;
  /** The tenant ceiling's limiter for pings (a lease over `rateLimiter` in the cloud); default `rateLimiter`. */
  pingTenantLimiter?: RateLimiter;
  /** Where open streams hold their slots (the per-key and per-tenant caps); default this process's memory. */
  streamSlots?: StreamSlots;
  /** The notify queue: state-change events, deliveries and repeats (the local SQLite queue, SQS in the cloud). */
  notifyQueue: JobQueue<NotifyQueueJob>;
  /** The action queue: state_change triggers, runs and pipeline deadlines (the local SQLite queue, SQS in the cloud). */
  actionQueue: JobQueue<ActionJob>;
  /** Outbound TLS trust and name resolution of channels and actions (tests: a test CA), and the process's kept-alive pools. */
  egress?: EgressSettings;
  /** The legacy MCP SSE stream's limits (the cloud ends it before the Lambda timeout). */
  mcpSse?: Partial<LegacyStreamSettings>;
  /** Aborted when the runtime stops: waiting requests (the agents' long-polls) answer at once. */
  stopping?: AbortSignal;
  /** How email channels send: SMTP locally, SES in the cloud; undefined: email deliveries fail, saying why. */
  email?: EmailTransport;
  /** How sms channels with provider sns send: Amazon SNS in the cloud; undefined locally. */
  smsTransport?: SmsTransport;
  /** Where a browser check's draft runs when this process has no browser (the cloud's draft browser function). */
  draftBrowser?: Prober | undefined;
  /** Where browser checks' screenshots are kept: files in the data dir locally, S3 in the cloud; absent: none. */
  artifacts?: ArtifactStore | undefined;
}
