import { type ExpectedStatus, expectedStatusSchema, MAX_EXPECTED_STATUSES } from '../domain/assertions.ts';
import { MAX_REPEAT_SECONDS, MIN_REPEAT_SECONDS } from '../domain/limits.ts';
import { realBrowserFields } from './kuma-browser.ts';
import { flag, type KumaContext, type Loose, num, text } from './kuma-context.ts';

/**
 * One Kuma monitor → the fields of one Vigil check (the create body of POST /v1/checks,
 * lib/checks/check-input.ts, without `entity`). A monitor is the object Kuma's backup writes
 * (server/model/monitor.js toJSON): camelCase names beside a few of the table's own
 * (`accepted_statuscodes`, `dns_resolve_type`, `basic_auth_user`).
 */

/** Kuma's DNS record types that Vigil's dns check resolves (PTR and SOA it does not). */
const DNS_TYPES = new Set(['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'CAA']);
/** Kuma's defaults: settings equal to these say nothing and make no unmapped line. */
const KUMA_MAX_REDIRECTS = 10;
const KUMA_PACKET_SIZE = 56;
const VIGIL_INTERVAL_MAX = 86_400;

type Fields = Loose;
type TypeMapper = (m: Loose, ctx: MonitorContext) => Fields | undefined;

/** A monitor's conversion: its label for lines, the context, and the line writer. */
interface MonitorContext {
  label: string;
  kuma: KumaContext;
  left(line: string): void;
}

/** The common fields every probed check takes: interval, retries as a failure threshold, timeout, enabled. */
function commonFields(m: Loose, c: MonitorContext, probed: boolean): Fields {
  const fields: Fields = {};
  const interval = num(m.interval);
  if (interval !== undefined) {
    fields.interval_seconds = Math.min(
      Math.max(Math.round(interval), 1),
      probed ? VIGIL_INTERVAL_MAX : 30 * 86_400,
    );
    if (fields.interval_seconds !== interval)
      c.left(`the interval ${interval} s is out of Vigil's range; it becomes ${fields.interval_seconds} s`);
  }
  // Kuma retries `maxretries` times before down: down on the (retries + 1)th failure in a row.
  const retries = num(m.maxretries);
  if (retries !== undefined && retries > 0) fields.failure_threshold = Math.min(retries + 1, 100);
  else fields.failure_threshold = 1;
  const retryInterval = num(m.retryInterval);
  if (retryInterval !== undefined && interval !== undefined && retryInterval !== interval && retries) {
    c.left(`the retry interval ${retryInterval} s is not kept (Vigil retries at the interval)`);
  }
  const timeout = num(m.timeout);
  if (probed && timeout !== undefined && timeout > 0) {
    fields.timeout_ms = Math.min(Math.max(Math.round(timeout * 1000), 100), 60_000);
    if (fields.timeout_ms !== Math.round(timeout * 1000))
      c.left(
        `the timeout ${timeout} s is out of Vigil's range; it becomes ${Number(fields.timeout_ms) / 1000} s`,
      );
  }
  if (m.active !== undefined && m.active !== null && !flag(m.active)) fields.enabled = false;
  if (m.proxyId !== undefined && m.proxyId !== null) c.left('its proxy is not kept');
  return fields;
}

/**
 * Kuma's accepted status codes as the check's: `["204"]` → `expected_status: 204`; ranges or
 * several codes → `expected_statuses` (`["200-299"]` stays 200-299). A code or range Vigil cannot
 * say (outside 100-599) is left out with a line; none left: Vigil's default, with a line.
 */
function statusFields(m: Loose, c: MonitorContext): Fields {
  const raw = m.accepted_statuscodes;
  const codes = Array.isArray(raw) ? raw.map(String) : [];
  if (codes.length === 0) return {};
  const kept: ExpectedStatus[] = [];
  for (const code of codes) {
    const entry = /^\d+$/.test(code) ? Number(code) : code;
    if (kept.length < MAX_EXPECTED_STATUSES && expectedStatusSchema.safeParse(entry).success)
      kept.push(entry);
    else
      c.left(
        `the accepted status code ${code} is not kept (Vigil takes up to ${MAX_EXPECTED_STATUSES} codes 100-599 and ranges of them)`,
      );
  }
  if (kept.length === 0) {
    c.left('no accepted status code is kept: Vigil expects 200');
    return {};
  }
  if (kept.length === 1 && typeof kept[0] === 'number')
    return kept[0] === 200 ? {} : { expected_status: kept[0] };
  return { expected_statuses: kept };
}

/** Kuma's headers are a JSON text; every value becomes a `${ENV}` reference (Vigil keeps header values write-only). */
function headers(m: Loose, c: MonitorContext): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  const raw = text(m.headers);
  if (raw) {
    try {
      for (const [name, value] of Object.entries(JSON.parse(raw) as Loose)) {
        out[name.toLowerCase()] = c.kuma.secret(
          c.label.replace(/^monitor /, ''),
          `header ${name}`,
          `the value of header ${name} of ${c.label} (${String(value).length} characters)`,
        );
      }
    } catch {
      c.left('its headers are not JSON and are not kept');
    }
  }
  const method = text(m.authMethod) ?? (text(m.basic_auth_user) ? 'basic' : undefined);
  if (method === 'basic') {
    out.authorization = c.kuma.secret(
      c.label.replace(/^monitor /, ''),
      'basic auth',
      `"Basic " and the base64 of user:password of ${c.label}`,
    );
  } else if (method) {
    c.left(`its ${method} authentication is not kept`);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A Kuma JSON path (JSONata) Vigil's dotted json path can say: `data.status`, `$.items[0].id`. */
function jsonPath(path: string): string | undefined {
  const body = path.replace(/^\$\.?/, '');
  if (!/^[A-Za-z_$][A-Za-z0-9_$-]*(?:\.[A-Za-z_$][A-Za-z0-9_$-]*|\[[0-9]{1,9}\])*$/.test(body))
    return undefined;
  return `$.${body}`;
}

/** Kuma compares the expected value as text; Vigil's eq compares JSON values, so numbers and booleans are typed. */
function typedValue(value: string): string | number | boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

function httpFields(m: Loose, c: MonitorContext): Fields {
  const fields: Fields = { target_url: text(m.url), ...commonFields(m, c, true) };
  const method = text(m.method)?.toUpperCase();
  if (method && method !== 'GET') fields.method = method;
  const body = text(m.body);
  if (body) fields.body = body;
  const sent = headers(m, c);
  if (sent) fields.headers = sent;
  Object.assign(fields, statusFields(m, c));
  if (flag(m.ignoreTls)) fields.tls = { skip_verify: true };
  const maxRedirects = num(m.maxredirects);
  if (maxRedirects !== undefined && maxRedirects !== KUMA_MAX_REDIRECTS)
    c.left(`the redirect limit ${maxRedirects} is not kept`);
  if (text(m.tlsCert) || text(m.tlsKey)) c.left('its client certificate is not kept');
  if (flag(m.expiryNotification))
    c.left('certificate expiry notification is not kept (add a tls check in Vigil)');
  return fields;
}

const MAPPERS: Record<string, TypeMapper> = {
  http: (m, c) => ({ check_type: 'http', ...httpFields(m, c) }),
  keyword: (m, c) => {
    const keyword = text(m.keyword);
    const op = flag(m.invertKeyword) ? 'not_contains' : 'contains';
    return {
      check_type: 'http',
      ...httpFields(m, c),
      ...(keyword ? { assertions: [{ source: 'body', op, value: keyword }] } : {}),
    };
  },
  'json-query': (m, c) => {
    const raw = text(m.jsonPath) ?? '';
    const path = jsonPath(raw);
    if (!path) {
      c.left(`the JSON query ${JSON.stringify(raw)} is not kept: Vigil's json path takes dotted paths only`);
      return { check_type: 'http', ...httpFields(m, c) };
    }
    const operator = text(m.jsonPathOperator) ?? '==';
    const ops: Record<string, string> = {
      '==': 'eq',
      '!=': 'ne',
      '<': 'lt',
      '<=': 'lte',
      '>': 'gt',
      '>=': 'gte',
      contains: 'contains',
    };
    const op = ops[operator];
    if (!op) c.left(`the JSON query operator ${operator} is not kept`);
    const value = typedValue(text(m.expectedValue) ?? '');
    return {
      check_type: 'http',
      ...httpFields(m, c),
      assertions: op ? [{ source: 'json', path, op, value }] : [],
    };
  },
  port: (m, c) => ({
    check_type: 'tcp',
    ...commonFields(m, c, true),
    config: { host: text(m.hostname), port: num(m.port) },
  }),
  ping: (m, c) => {
    const size = num(m.packetSize);
    if (size !== undefined && size !== KUMA_PACKET_SIZE) c.left(`the packet size ${size} is not kept`);
    return { check_type: 'icmp', ...commonFields(m, c, true), config: { host: text(m.hostname) } };
  },
  dns: (m, c) => {
    const type = text(m.dns_resolve_type) ?? 'A';
    if (!DNS_TYPES.has(type)) {
      c.left(`the record type ${type} is not kept: Vigil's dns check resolves ${[...DNS_TYPES].join(', ')}`);
      return undefined;
    }
    const server = text(m.dns_resolve_server);
    const port = num(m.port);
    const nameserver =
      server && port && port !== 53 ? `${server.includes(':') ? `[${server}]` : server}:${port}` : server;
    return {
      check_type: 'dns',
      ...commonFields(m, c, true),
      config: { hostname: text(m.hostname), record_type: type, ...(nameserver ? { nameserver } : {}) },
    };
  },
  push: (m, c) => {
    c.left(
      "its push URL changes: the job must report to the new check's ping URL (the token is not configuration)",
    );
    const fields = commonFields(m, c, false);
    // Kuma marks a push monitor down once an interval passes without a push: the grace is one interval.
    const grace =
      typeof fields.interval_seconds === 'number'
        ? { config: { grace_seconds: fields.interval_seconds } }
        : {};
    return { check_type: 'push', ...fields, ...grace };
  },
  'real-browser': (m, c) => realBrowserFields(m, commonFields(m, c, false), c.left),
  'grpc-keyword': (m, c) => {
    const url = text(m.grpcUrl) ?? '';
    const match = /^(?:[a-z]+:\/\/)?(\[[^\]]+\]|[^:/]+):(\d+)/.exec(url);
    if (!match) {
      c.left(`the gRPC URL ${JSON.stringify(url)} has no host:port`);
      return undefined;
    }
    c.left("its gRPC method, body and keyword are not kept: Vigil asks the server's health service");
    const service = text(m.grpcServiceName);
    return {
      check_type: 'grpc',
      ...commonFields(m, c, true),
      config: {
        host: match[1]?.replace(/^\[|\]$/g, ''),
        port: Number(match[2]),
        ...(service ? { service } : {}),
        ...(flag(m.grpcEnableTls) ? { use_tls: true } : {}),
      },
    };
  },
};

/**
 * The check fields of a monitor, or undefined (with its line) when Vigil has no such check.
 * `channels` are the shared channel names of the monitor's notifications; `repeat` its resend.
 */
export function convertMonitor(m: Loose, kuma: KumaContext, channels: string[]): Fields | undefined {
  const label = `monitor "${String(m.name)}"`;
  const ctx: MonitorContext = { label, kuma, left: (line) => kuma.skip(`${label}: ${line}`) };
  const type = String(m.type ?? '');
  const mapper = MAPPERS[type];
  if (!mapper) {
    kuma.skip(`${label} (type ${type}): Vigil has no ${type} check`);
    return undefined;
  }
  // An upside-down monitor is up when its target fails: a normal check would alert exactly when
  // Kuma would not, and Vigil has no inverted check, so it is left out rather than turned over.
  if (flag(m.upsideDown)) {
    kuma.skip(`${label}: not imported: upside-down monitors are not supported (Vigil has no inverted check)`);
    return undefined;
  }
  const fields = mapper(m, ctx);
  if (!fields) return undefined;
  if (text(m.description)) ctx.left('its description is not kept');
  // Kuma 2.x's conditions (an expression list, "[]" when none) have no counterpart in a check.
  if (text(m.conditions) && text(m.conditions) !== '[]') ctx.left('its conditions are not kept');
  const policy = policyOf(m, channels, ctx);
  return { name: String(m.name).trim().slice(0, 200), ...fields, ...(policy ? { policy } : {}) };
}

/**
 * The check's notification policy (lib/features/kinds/check-policy.ts): the shared channels by name
 * (`{channel: name}`), and Kuma's resend (every N beats while down) as a repeat.
 */
function policyOf(m: Loose, channels: string[], c: MonitorContext): Loose | undefined {
  const resend = num(m.resendInterval) ?? 0;
  const interval = num(m.interval) ?? 60;
  let repeat: number | undefined;
  if (resend > 0) {
    const seconds = resend * interval;
    if (seconds >= MIN_REPEAT_SECONDS && seconds <= MAX_REPEAT_SECONDS) repeat = seconds;
    else
      c.left(`resending every ${resend} beats (${seconds} s) is out of Vigil's repeat range and is not kept`);
  }
  if (channels.length === 0 && repeat === undefined) return undefined;
  return {
    channels: channels.map((channel) => ({ channel })),
    ...(repeat !== undefined ? { repeat_interval_seconds: repeat } : {}),
  };
}
