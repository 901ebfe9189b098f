import { DNS_RECORD_TYPES } from '../probes/dns-answers.ts';
import { alertSettings, type GatusChannels } from './gatus-alerting.ts';
import {
  type ConditionHost,
  type MappedConditions,
  mapConditions,
  statusFields,
} from './gatus-conditions.ts';
import { asRecord, envName, envRef, goDurationSeconds, referencedEnv } from './import-common.ts';

/**
 * One Gatus endpoint (README "Endpoints": name, group, url, method, body, headers, interval,
 * conditions, alerts, dns, client, enabled) as the checks of its entity: the check its url's
 * scheme makes (http(s), tcp, icmp, tls, grpc, or dns with `dns:`), plus a tls check for a
 * `[CERTIFICATE_EXPIRATION]` condition of an http endpoint and a domain check for a
 * `[DOMAIN_EXPIRATION]` one, since Vigil checks those separately.
 */

/** Keys of an endpoint read here (or by the caller: group, maintenance-windows). */
const ENDPOINT_KEYS = new Set([
  'name',
  'group',
  'url',
  'method',
  'body',
  'headers',
  'interval',
  'conditions',
  'alerts',
  'dns',
  'client',
  'enabled',
  'maintenance-windows',
]);
/** Gatus's HTTP client timeout when `client.timeout` is absent (Vigil's default is 5 s). */
const GATUS_TIMEOUT_MS = 10_000;
/** Header names whose values are credentials: held as `${ENV}` references, never copied. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|api-?key|password/i;

interface Target {
  host: ConditionHost;
  fields: Record<string, unknown>;
  /** The host a tls or domain check beside the endpoint's own would read. */
  hostname?: string;
  port?: number;
}

/** The check fields the url's scheme makes; undefined (with a line) when Vigil has no such check. */
function targetOf(endpoint: Record<string, unknown>, path: string, unmapped: string[]): Target | undefined {
  const url = String(endpoint.url ?? '');
  const dns = asRecord(endpoint.dns);
  if (dns) {
    const type = String(dns['query-type'] ?? 'A').toUpperCase();
    if (!(DNS_RECORD_TYPES as readonly string[]).includes(type)) {
      unmapped.push(`${path}.dns.query-type: Vigil's dns check has no ${type} queries, endpoint left out`);
      return undefined;
    }
    const config = { hostname: String(dns['query-name'] ?? ''), record_type: type, nameserver: url };
    return { host: 'dns', fields: { check_type: 'dns', config } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    unmapped.push(`${path}.url: "${url}" is not a URL, endpoint left out`);
    return undefined;
  }
  // A host given as Gatus's `${VAR}` is known only where Gatus runs: no check beside it can name it.
  const hostname = parsed.hostname.includes('$') ? undefined : parsed.hostname.replace(/^\[|\]$/g, '');
  const port = parsed.port === '' ? undefined : Number(parsed.port);
  if (hostname === undefined && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    unmapped.push(`${path}.url: "${url}" names its host by an environment variable, endpoint left out`);
    return undefined;
  }
  switch (parsed.protocol) {
    case 'http:':
    case 'https:':
      return {
        host: 'http',
        fields: { check_type: 'http', target_url: withoutPassword(url, parsed, path, unmapped) },
        hostname,
        port,
      };
    case 'tcp:':
      if (port === undefined) break;
      return { host: 'tcp', fields: { check_type: 'tcp', config: { host: hostname, port } }, hostname };
    case 'icmp:':
      return { host: 'icmp', fields: { check_type: 'icmp', config: { host: hostname } }, hostname };
    case 'tls:':
      return {
        host: 'tls',
        fields: { check_type: 'tls', config: { host: hostname, ...(port ? { port } : {}) } },
        hostname,
      };
    case 'grpc:':
    case 'grpcs:': {
      if (port === undefined) break;
      const config = { host: hostname, port, ...(parsed.protocol === 'grpcs:' ? { use_tls: true } : {}) };
      return { host: 'grpc', fields: { check_type: 'grpc', config }, hostname };
    }
  }
  unmapped.push(
    `${path}.url: Vigil has no check for ${parsed.protocol}// endpoints like "${url}", endpoint left out`,
  );
  return undefined;
}

/** The URL with a password in it held as a `${ENV}` reference (a line says which), never copied. */
function withoutPassword(url: string, parsed: URL, path: string, unmapped: string[]): string {
  if (parsed.password === '' || referencedEnv(parsed.password)) return url;
  const variable = envName('GATUS', path.replace(/\W+/g, '_'), 'URL_PASSWORD');
  unmapped.push(
    `${path}.url: its password is a secret, not copied; set ${variable} in the environment of plan and apply`,
  );
  return url.replace(`:${parsed.password}@`, `:${envRef(variable)}@`);
}

/** The checks of one endpoint, in document form, for the entity `entity`. */
export function endpointChecks(
  endpoint: Record<string, unknown>,
  path: string,
  entity: string,
  channels: GatusChannels,
  unmapped: string[],
): Record<string, unknown>[] {
  const name = String(endpoint.name ?? '').trim();
  if (name === '') {
    unmapped.push(`${path}: no name (Gatus requires one), endpoint left out`);
    return [];
  }
  for (const key of Object.keys(endpoint)) {
    if (!ENDPOINT_KEYS.has(key)) unmapped.push(`${path}.${key}: Vigil has no equivalent, left out`);
  }
  const target = targetOf(endpoint, path, unmapped);
  if (!target) return [];
  const conditions = Array.isArray(endpoint.conditions) ? endpoint.conditions.map(String) : [];
  const mapped = mapConditions(conditions, target.host);
  for (const line of mapped.unmapped) unmapped.push(`${path}.conditions: ${line}`);
  if (target.host === 'http' && !mapped.statusSpans && conditions.length > 0) {
    // Gatus judges the status only by a condition: without one, any status passes, and so it does here.
    mapped.statusSpans = [[100, 599]];
  }
  const interval = intervalSeconds(endpoint.interval, `${path}.interval`, unmapped);
  const common: Record<string, unknown> = {
    entity,
    name,
    ...(interval === undefined ? {} : { interval_seconds: interval }),
    ...(endpoint.enabled === false ? { enabled: false } : {}),
  };
  const alerts = alertSettings(endpoint.alerts, `${path}.alerts`, channels, unmapped);
  const own = {
    ...common,
    ...target.fields,
    ...conditionFields(target, mapped),
    ...(target.host === 'http' ? httpFields(endpoint, path, name, unmapped) : {}),
    ...clientFields(endpoint.client, `${path}.client`, target.host, unmapped),
    ...alerts,
  };
  const checks: Record<string, unknown>[] = [own];
  if ((mapped.certificateDays !== undefined || mapped.domainDays !== undefined) && !target.hostname) {
    unmapped.push(
      `${path}.conditions: the expiry conditions need the host, which an environment variable names; left out`,
    );
  }
  if (mapped.certificateDays !== undefined && target.host !== 'tls' && target.hostname) {
    const config = { host: target.hostname, ...(target.port ? { port: target.port } : {}) };
    checks.push({
      ...common,
      name: `${name} certificate`,
      check_type: 'tls',
      config: { ...config, expiry_threshold_days: mapped.certificateDays },
      ...alerts,
    });
  }
  if (mapped.domainDays !== undefined && target.hostname) {
    checks.push({
      ...common,
      name: `${name} domain`,
      check_type: 'domain',
      // RDAP servers limit how often they are asked: a domain check runs at most hourly.
      interval_seconds: Math.max(3600, interval ?? 60),
      config: { domain: target.hostname, expiry_threshold_days: mapped.domainDays },
      ...alerts,
    });
  }
  return checks;
}

function conditionFields(target: Target, mapped: MappedConditions): Record<string, unknown> {
  if (target.host === 'http') {
    return {
      ...(mapped.statusSpans ? statusFields(mapped.statusSpans) : {}),
      ...(mapped.assertions.length > 0 ? { assertions: mapped.assertions } : {}),
    };
  }
  const config = { ...(target.fields.config as Record<string, unknown>) };
  if (target.host === 'tls' && mapped.certificateDays !== undefined) {
    config.expiry_threshold_days = mapped.certificateDays;
  }
  if (target.host === 'dns' && mapped.dnsExpected !== undefined) config.expected_value = mapped.dnsExpected;
  return { config };
}

function httpFields(
  endpoint: Record<string, unknown>,
  path: string,
  name: string,
  unmapped: string[],
): Record<string, unknown> {
  const fields: Record<string, unknown> = { timeout_ms: GATUS_TIMEOUT_MS };
  if (typeof endpoint.method === 'string' && endpoint.method.toUpperCase() !== 'GET') {
    fields.method = endpoint.method.toUpperCase();
  }
  if (typeof endpoint.body === 'string' && endpoint.body !== '') fields.body = endpoint.body;
  const headers = requestHeaders(endpoint, path, name, unmapped);
  if (headers) fields.headers = headers;
  return fields;
}

/** An endpoint's headers, a credential's value held as a `${ENV}` reference (a line says which), never copied. */
export function requestHeaders(
  endpoint: Record<string, unknown>,
  path: string,
  name: string,
  unmapped: string[],
): Record<string, string> | undefined {
  const headers = asRecord(endpoint.headers);
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([header, value]) => {
      const own = referencedEnv(value);
      if (own) return [header, envRef(own)];
      // A suite's `Bearer [CONTEXT].token` names where the credential is (a context value, a stored one).
      if (!SECRET_HEADER.test(header) || String(value).includes('[CONTEXT].')) return [header, String(value)];
      return [header, secretReference(`${path}.headers.${header}`, name, header, unmapped)];
    }),
  );
}

/** A secret's `${ENV}` reference, named after what holds it, and the line that says to set it. */
export function secretReference(path: string, owner: string, field: string, unmapped: string[]): string {
  const variable = envName('GATUS', owner, field);
  unmapped.push(`${path}: a secret, not copied; set ${variable} in the environment of plan and apply`);
  return envRef(variable);
}

/** A name that holds a credential (a header's, a suite context key's). */
export const isSecretName = (name: string) => SECRET_HEADER.test(name);

/** Gatus's `client`: its timeout and `insecure` have Vigil equivalents, the rest is listed. */
function clientFields(raw: unknown, path: string, host: ConditionHost, unmapped: string[]) {
  const client = asRecord(raw);
  if (!client) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(client)) {
    const seconds = key === 'timeout' ? goDurationSeconds(value) : undefined;
    if (seconds !== undefined && host === 'http') {
      fields.timeout_ms = Math.min(60_000, Math.max(100, Math.round(seconds * 1000)));
    } else if (key === 'insecure' && (host === 'http' || host === 'tls' || host === 'grpc')) {
      if (value === true) fields.tls = { skip_verify: true };
    } else {
      unmapped.push(`${path}.${key}: Vigil's ${host} check has no equivalent, left out`);
    }
  }
  return fields;
}

/** Seconds between runs (Gatus's default 60 s is Vigil's too, so it is left out); lines for what Vigil cannot run. */
export function intervalSeconds(
  raw: unknown,
  path: string,
  unmapped: string[],
  max = 86_400,
): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = goDurationSeconds(raw);
  if (seconds === undefined || seconds <= 0) {
    unmapped.push(`${path}: "${String(raw)}" is not a duration, Vigil's default (60 s) used`);
    return undefined;
  }
  const whole = Math.min(max, Math.max(1, Math.round(seconds)));
  if (whole !== seconds) unmapped.push(`${path}: ${String(raw)} runs every ${whole} s in Vigil`);
  return whole === 60 ? undefined : whole;
}
