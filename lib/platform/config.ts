import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import {
  API_KEY_FORMAT_MESSAGE,
  DEFAULT_NATS_PREFIX,
  type EmailSender,
  isHostValue,
  isWellFormedApiKey,
  natsSubjectProblem,
  parseEmailSender,
} from '../domain/formats.ts';
import { type BulkSettings, bulkEnv, bulkSettings, positiveBucket } from './bulk-config.ts';
import { commaList, type PageDomains, pageDomainsEnv, pageDomainsOf } from './page-domain-config.ts';
import { type PeopleSettings, peopleEnv, peopleSettings } from './people-config.ts';
import { type PingSettings, pingEnv, pingSettings } from './ping-config.ts';
import { type ProbeSettings, probeEnv, probeSettings } from './probe-config.ts';

/**
 * The only module that reads process.env. Every variable is documented in docs/settings.md's
 * configuration table; keep the two in step.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** `nats://` server URLs, comma-separated (user and password or a token may be in the URL). */
const natsUrls = z.array(
  z.string().regex(/^nats:\/\/[^\s,]+$/, 'expected nats://host:port URLs, comma-separated'),
);

/** The root of every published NATS subject: NATS tokens, no wildcards, no `$` or `_INBOX` start. */
const natsPrefix = z
  .string()
  .max(64, 'must be at most 64 characters')
  .superRefine((value, ctx) => {
    const problem = natsSubjectProblem(value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        message: `expected NATS subject tokens such as vigil or acme.vigil. ${problem}`,
      });
  });

/** `smtp://[user:pass@]host[:port]` (STARTTLS) or `smtps://...` (TLS from the start). */
const smtpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}, 'expected smtp://[user:password@]host[:port] or smtps://...');

/** `alerts@example.com` or `Vigil <alerts@example.com>`. */
const emailFrom = z.string().transform((value, ctx) => {
  const sender = parseEmailSender(value);
  if (!sender)
    ctx.addIssue({ code: 'custom', message: 'expected alerts@example.com or Vigil <alerts@example.com>' });
  return sender ?? { address: '' };
});

/** IPv4 or IPv6 CIDRs, comma-separated. */
const cidrs = z.array(
  z.string().refine(isCidr, 'expected CIDRs such as 10.0.0.0/8 or fd00::/8, comma-separated'),
);

function isCidr(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (address === undefined || bits === undefined || extra !== undefined || !/^\d{1,3}$/.test(bits))
    return false;
  const version = isIP(address);
  return version !== 0 && Number(bits) <= (version === 4 ? 32 : 128);
}

/** Host names or addresses (a port is ignored), comma-separated. */
const hostNames = z.array(
  z.string().refine(isHostValue, 'expected host names such as vigil.lan, comma-separated'),
);

/** The console's build output in this checkout (`npm run build:web` writes it). */
const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  VIGIL_HOST: z.string().trim().min(1).default('127.0.0.1'),
  VIGIL_DATA_DIR: z.string().min(1).default('./data'),
  VIGIL_BOOTSTRAP_KEY: z.string().refine(isWellFormedApiKey, API_KEY_FORMAT_MESSAGE).optional(),
  VIGIL_BOOTSTRAP_EMAIL: z.string().email().default('admin@localhost'),
  VIGIL_STORE: z.enum(['sqlite', 'dynamodb']).optional(),
  VIGIL_TABLE_NAME: z.string().min(1).default('vigil'),
  VIGIL_DYNAMODB_ENDPOINT: z.string().url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  VIGIL_LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  VIGIL_ALLOW_PRIVATE_TARGETS: bool.optional(),
  VIGIL_PROBE_QUEUE_URL: z.string().optional(),
  VIGIL_PROBE_HTTP_CLIENT: z.enum(['http1', 'undici']).default('http1'),
  VIGIL_RATE_LIMIT_RPS: z.coerce.number().min(0).max(1_000_000).default(20),
  VIGIL_RATE_LIMIT_BURST: z.coerce.number().int().min(0).max(1_000_000).default(100),
  VIGIL_AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(10),
  VIGIL_STREAMS_PER_KEY: z.coerce.number().int().min(0).max(1000).default(5),
  VIGIL_STREAMS_PER_TENANT: z.coerce.number().int().min(0).max(1000).default(20),
  // Unset: derived from the per-key and per-credential values (see loadConfig).
  VIGIL_AUTH_FAILURE_ADDRESS_LIMIT: z.coerce.number().int().min(0).max(1_000_000).optional(),
  VIGIL_RATE_LIMIT_TENANT_RPS: z.coerce.number().min(0).max(1_000_000).optional(),
  VIGIL_RATE_LIMIT_TENANT_BURST: z.coerce.number().int().min(0).max(1_000_000).optional(),
  VIGIL_NATS_URL: z.string().default('').transform(commaList).pipe(natsUrls),
  VIGIL_NATS_PREFIX: natsPrefix.default(DEFAULT_NATS_PREFIX),
  VIGIL_EGRESS_ALLOW: z.string().default('').transform(commaList).pipe(cidrs),
  VIGIL_PUBLIC_URL: z.string().url().optional(),
  VIGIL_ALLOWED_HOSTS: z.string().default('').transform(commaList).pipe(hostNames),
  VIGIL_SMTP_URL: smtpUrl.optional(),
  VIGIL_METRICS_OPEN: bool.optional(),
  VIGIL_AGENT_ALLOW_HTTP: bool.optional(),
  VIGIL_EMAIL_FROM: emailFrom.optional(),
  VIGIL_NOTIFY_QUEUE_URL: z.string().optional(),
  VIGIL_ACTION_QUEUE_URL: z.string().optional(),
  VIGIL_EVENT_BUS_NAME: z.string().optional(),
  VIGIL_CONSOLE_DIR: z.string().trim().min(1).optional(),
  VIGIL_EDGE_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
  VIGIL_AGENT_URL: z.string().url().optional(),
  VIGIL_LOCATION_KEY_SECRET: z.string().min(1).optional(),
  VIGIL_REGION_BROWSER_FUNCTION: z.string().min(1).optional(),
  VIGIL_DRAFT_BROWSER_FUNCTION: z.string().min(1).optional(),
  VIGIL_HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  VIGIL_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  VIGIL_HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1024),
  ...peopleEnv,
  ...probeEnv,
  ...bulkEnv,
  ...pingEnv,
  ...pageDomainsEnv,
});

/** The variables with the rules that join two of them. */
const checkedEnv = envSchema.refine(
  (e) => e.VIGIL_HTTP_HEADERS_TIMEOUT_MS <= e.VIGIL_HTTP_REQUEST_TIMEOUT_MS,
  {
    path: ['VIGIL_HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must not exceed VIGIL_HTTP_REQUEST_TIMEOUT_MS (a request includes its head)',
  },
);

export type Runtime = 'local' | 'cloud';

/** A tenant's default ceiling: as many requests as this many keys at their own full rate. */
const TENANT_FACTOR = 5;
/** A source address's default failure ceiling: this many misconfigured clients behind it. */
const ADDRESS_FACTOR = 10;

export interface Config extends BulkSettings, PingSettings, ProbeSettings, PageDomains {
  runtime: Runtime;
  port: number;
  /** Local runtime: the address the HTTP server binds (loopback unless told otherwise). */
  host: string;
  dataDir: string;
  bootstrapKey: string | undefined;
  bootstrapEmail: string;
  store: 'sqlite' | 'dynamodb';
  tableName: string;
  dynamodbEndpoint: string | undefined;
  region: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Probe targets on private/reserved addresses: allowed locally by default, denied in the cloud. */
  allowPrivateTargets: boolean;
  probeQueueUrl: string | undefined;
  /** The HTTP client of http probes: the hand-written one, or undici (local only: the benchmark compares them). */
  probeHttpClient: 'http1' | 'undici';
  /**
   * The token bucket of each API key, each callback token (per execution) and each source address
   * on the routes without a key; `undefined` when either variable is 0 (no limit).
   */
  rateLimit: { perSecond: number; burst: number } | undefined;
  /** The tenant's token bucket over all its keys and callback tokens (default 5 x per key); 0: none. */
  tenantRateLimit: { perSecond: number; burst: number } | undefined;
  /** Failed authentications per source address and credential (key prefix) per minute; 0: not limited. */
  authFailuresPerMinute: number;
  /** Open streams per API key and per tenant, for each stream kind (status, legacy MCP SSE); 0: not capped. */
  streamCaps: { perKey: number; perTenant: number };
  /** Failed authentications per source address per minute, whatever the credential; 0: not limited. */
  authFailuresPerAddressPerMinute: number;
  /** NATS servers of the nats channel (`nats://` URLs); empty: nats deliveries fail with a clear error. */
  natsUrls: string[];
  /** The root of every published subject: `<natsPrefix>.<tenant id>.<the channel's subject>`. */
  natsPrefix: string;
  /** CIDRs channels and actions may reach although private (never cloud metadata addresses). */
  egressAllow: string[];
  /** Where users reach Vigil (links to the console in alerts); undefined: no links. */
  publicUrl: string | undefined;
  /** VIGIL_ALLOWED_HOSTS: more host names the MCP endpoint and the console answer under (lib/http/origin-policy.ts). */
  allowedHosts: string[];
  /** Local runtime: the SMTP server of email channels; undefined: email deliveries fail with a clear error. */
  smtpUrl: string | undefined;
  /** Local runtime: GET /metrics answers any address (true) or only loopback peers (false, the default). */
  metricsOpen: boolean;
  /** Local runtime: agents may lease jobs over plain HTTP from any address (docs/agent.md "Transport"). */
  agentAllowHttp: boolean;
  /** The From of email alerts (SMTP and SES); undefined: email deliveries fail with a clear error. */
  emailFrom: EmailSender | undefined;
  /** Cloud: the SQS queue of notification jobs. */
  notifyQueueUrl: string | undefined;
  /** Cloud: the SQS queue of action jobs (triggers, schedule runs, pipeline deadlines). */
  actionQueueUrl: string | undefined;
  /** Cloud: the EventBridge bus every state-change event is published to. */
  eventBusName: string | undefined;
  /** Local runtime: the built web console served at `/` (an absolute path). */
  consoleDir: string;
  /** Cloud: the secret the console's edge sends; only a request with it has its viewer address believed. */
  edgeSecret: string | undefined;
  /** Cloud, an AWS region's probe function: the home deployment's API it runs the agent protocol against. */
  agentUrl: string | undefined;
  /** Cloud, an AWS region's probe function: the Secrets Manager secret (ARN or name) holding its location key. */
  locationKeySecret: string | undefined;
  /** Cloud, an AWS region's probe function: its region's browser function (name), which runs its browser legs. */
  regionBrowserFunction: string | undefined;
  /** Cloud, the API function: the draft browser function (name), which runs browser checks' drafts. */
  draftBrowserFunction: string | undefined;
  /** Local runtime: the HTTP server's timeouts and connection cap (lib/local/connection-limits.ts). */
  http: HttpLimits;
  /** Console sessions' idle and absolute timeouts (lib/platform/people-config.ts). */
  people: PeopleSettings;
}

/** How long the local server waits for a client, and how many connections it holds. */
export interface HttpLimits {
  /** A request's head must arrive within this; it also closes a connection that sends nothing. */
  headersTimeoutMs: number;
  /** A request's head and body must arrive within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; over it the oldest idle ones are closed to make room. */
  maxConnections: number;
}

/** Reads and validates configuration; throws a readable error naming every bad variable. */
export function loadConfig(runtime: Runtime, env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = checkedEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (runtime === 'cloud' && e.VIGIL_PROBE_HTTP_CLIENT === 'undici') {
    // The worker function bundles only the hand-written client (docs/performance.md, "Function bundles").
    throw new Error(
      'invalid configuration:\n  VIGIL_PROBE_HTTP_CLIENT: undici is a diagnostic of the local runtime; the cloud probes with http1',
    );
  }
  return {
    runtime,
    port: e.PORT,
    host: e.VIGIL_HOST,
    dataDir: e.VIGIL_DATA_DIR,
    bootstrapKey: e.VIGIL_BOOTSTRAP_KEY,
    bootstrapEmail: e.VIGIL_BOOTSTRAP_EMAIL,
    store: e.VIGIL_STORE ?? (runtime === 'cloud' ? 'dynamodb' : 'sqlite'),
    tableName: e.VIGIL_TABLE_NAME,
    dynamodbEndpoint: e.VIGIL_DYNAMODB_ENDPOINT,
    region: e.AWS_REGION,
    logLevel: e.VIGIL_LOG_LEVEL,
    allowPrivateTargets: e.VIGIL_ALLOW_PRIVATE_TARGETS ?? runtime === 'local',
    ...probeSettings(e),
    probeQueueUrl: e.VIGIL_PROBE_QUEUE_URL,
    probeHttpClient: e.VIGIL_PROBE_HTTP_CLIENT,
    rateLimit: positiveBucket(e.VIGIL_RATE_LIMIT_RPS, e.VIGIL_RATE_LIMIT_BURST),
    tenantRateLimit: positiveBucket(
      e.VIGIL_RATE_LIMIT_TENANT_RPS ?? TENANT_FACTOR * e.VIGIL_RATE_LIMIT_RPS,
      e.VIGIL_RATE_LIMIT_TENANT_BURST ?? TENANT_FACTOR * e.VIGIL_RATE_LIMIT_BURST,
    ),
    authFailuresPerMinute: e.VIGIL_AUTH_FAILURE_LIMIT,
    streamCaps: { perKey: e.VIGIL_STREAMS_PER_KEY, perTenant: e.VIGIL_STREAMS_PER_TENANT },
    authFailuresPerAddressPerMinute:
      e.VIGIL_AUTH_FAILURE_ADDRESS_LIMIT ?? ADDRESS_FACTOR * e.VIGIL_AUTH_FAILURE_LIMIT,
    natsUrls: e.VIGIL_NATS_URL,
    natsPrefix: e.VIGIL_NATS_PREFIX,
    egressAllow: e.VIGIL_EGRESS_ALLOW,
    publicUrl: e.VIGIL_PUBLIC_URL?.replace(/\/+$/, ''),
    allowedHosts: e.VIGIL_ALLOWED_HOSTS,
    smtpUrl: e.VIGIL_SMTP_URL,
    metricsOpen: e.VIGIL_METRICS_OPEN ?? false,
    agentAllowHttp: e.VIGIL_AGENT_ALLOW_HTTP ?? false,
    emailFrom: e.VIGIL_EMAIL_FROM,
    notifyQueueUrl: e.VIGIL_NOTIFY_QUEUE_URL,
    actionQueueUrl: e.VIGIL_ACTION_QUEUE_URL,
    eventBusName: e.VIGIL_EVENT_BUS_NAME,
    consoleDir: resolve(e.VIGIL_CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR),
    edgeSecret: e.VIGIL_EDGE_SECRET,
    agentUrl: e.VIGIL_AGENT_URL,
    locationKeySecret: e.VIGIL_LOCATION_KEY_SECRET,
    regionBrowserFunction: e.VIGIL_REGION_BROWSER_FUNCTION,
    draftBrowserFunction: e.VIGIL_DRAFT_BROWSER_FUNCTION,
    http: {
      headersTimeoutMs: e.VIGIL_HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.VIGIL_HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.VIGIL_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.VIGIL_HTTP_MAX_CONNECTIONS,
    },
    people: peopleSettings(e),
    ...bulkSettings(e),
    ...pageDomainsOf(e),
    ...pingSettings(e, positiveBucket(e.VIGIL_RATE_LIMIT_RPS, e.VIGIL_RATE_LIMIT_BURST)),
  };
}
