import { MAX_EXPECTED_STATUSES } from '../domain/assertions.ts';
import type { AssertionOp, HttpAssertion } from '../domain/http-assertions.ts';
import { goDurationSeconds } from './import-common.ts';

/**
 * Gatus's endpoint conditions (config/endpoint/condition.go: `<left> <op> <right>`, ops `==`,
 * `!=`, `<=`, `>=`, `>`, `<`, tried in that order; placeholders `[STATUS]`, `[RESPONSE_TIME]`,
 * `[BODY]` with a json path, `[CONNECTED]`, `[IP]`, `[CERTIFICATE_EXPIRATION]`,
 * `[DOMAIN_EXPIRATION]`, `[DNS_RCODE]`; functions `len()`, `has()`, `pat()`, `any()`) read as
 * what a Vigil check says the same: an expected status, http assertions, a tls or domain check
 * beside it, a dns check's expected value. Whatever has no equivalent is answered with its reason.
 */

/** The kind of check the endpoint became, which decides what its conditions can be. */
export type ConditionHost = 'http' | 'tcp' | 'icmp' | 'dns' | 'tls' | 'grpc';

export interface MappedConditions {
  /** The statuses every [STATUS] condition accepts, as inclusive [lo, hi] spans (absent: none judged). */
  statusSpans?: [number, number][];
  assertions: HttpAssertion[];
  /** `[CERTIFICATE_EXPIRATION] > 48h`: days before expiry a tls check reports it (degraded). */
  certificateDays?: number;
  /** `[DOMAIN_EXPIRATION] > 720h`: days before expiry a domain check reports it (degraded). */
  domainDays?: number;
  /** A dns endpoint's `[BODY] == <value>`: the answer it must include. */
  dnsExpected?: string;
  /** `<condition>: <why>`, one per condition left out. */
  unmapped: string[];
}

const OPERATORS = [
  ['==', 'eq'],
  ['!=', 'ne'],
  ['<=', 'lte'],
  ['>=', 'gte'],
  ['>', 'gt'],
  ['<', 'lt'],
] as const satisfies readonly (readonly [string, AssertionOp])[];
type Op = (typeof OPERATORS)[number][1];
const FLIPPED: Record<Op, Op> = { eq: 'eq', ne: 'ne', lte: 'gte', gte: 'lte', gt: 'lt', lt: 'gt' };

const PLACEHOLDER = /^(?:(len|has)\()?\[([A-Z_]+)\]([^)\s]*)\)?$/i;

interface Side {
  fn?: 'len' | 'has';
  placeholder: string;
  path: string;
}

function placeholderOf(text: string): Side | undefined {
  const match = PLACEHOLDER.exec(text);
  if (!match) return undefined;
  const fn = match[1]?.toLowerCase() as Side['fn'];
  return { ...(fn ? { fn } : {}), placeholder: (match[2] ?? '').toUpperCase(), path: match[3] ?? '' };
}

/** A Gatus json path after `[BODY]` (`.data[0].id`) as Vigil's dotted `$.data[0].id`; undefined for wildcards. */
export function jsonPath(path: string): string | undefined {
  if (path.includes('*')) return undefined;
  const dotted = `$${path.startsWith('.') || path.startsWith('[') ? '' : '.'}${path}`;
  return /^\$(?:\.[A-Za-z_$][\w$-]*|\[\d{1,9}\])*$/.test(dotted) ? dotted : undefined;
}

/** `pat(*ok*)`: Gatus's glob (`*` any run, `?` one character) as an anchored RE2 pattern. */
function globPattern(glob: string): string {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return `^${escaped.replace(/\*/g, '[\\s\\S]*').replace(/\?/g, '[\\s\\S]')}$`;
}

const FUNCTION_VALUE = /^(pat|any)\((.*)\)$/s;

/** A right-hand side as an assertion's op and value; undefined when Vigil cannot compare it that way. */
function assertedValue(op: Op, raw: string): { op: AssertionOp; value: string | number } | undefined {
  const fn = FUNCTION_VALUE.exec(raw);
  if (fn) {
    if (fn[1] === 'pat' && op === 'eq') {
      return { op: 'matches', value: globPattern(fn[2] ?? '') };
    }
    return undefined;
  }
  if (op === 'eq' || op === 'ne') return { op, value: raw };
  const number = numberOf(raw);
  return number === undefined ? undefined : { op, value: number };
}

/** A number, or a Go duration as milliseconds (Gatus compares `[RESPONSE_TIME] < 1s` that way). */
function numberOf(raw: string): number | undefined {
  if (/^-?\d+(?:\.\d+)?$/.test(raw)) return Number(raw);
  const seconds = goDurationSeconds(raw);
  return seconds === undefined ? undefined : Math.round(seconds * 1000);
}

/** Reads every condition of one endpoint for a check of `host`'s kind. */
export function mapConditions(conditions: readonly string[], host: ConditionHost): MappedConditions {
  const mapped: MappedConditions = { assertions: [], unmapped: [] };
  for (const condition of conditions) {
    const why = mapCondition(condition.trim(), host, mapped);
    if (why) mapped.unmapped.push(`${condition}: ${why}`);
  }
  return mapped;
}

/** Adds one condition to `mapped`; answers why it cannot, or undefined when it did. */
function mapCondition(condition: string, host: ConditionHost, mapped: MappedConditions): string | undefined {
  const found = OPERATORS.find(([symbol]) => condition.includes(` ${symbol} `));
  if (!found) return 'not a condition Gatus reads (no operator)';
  const [symbol, op] = found;
  const [leftRaw = '', ...rest] = condition.split(` ${symbol} `);
  const rightRaw = rest.join(` ${symbol} `);
  let side = placeholderOf(leftRaw.trim());
  let other = rightRaw.trim();
  let effective: Op = op;
  if (!side) {
    side = placeholderOf(other);
    other = leftRaw.trim();
    effective = FLIPPED[op];
  }
  if (!side) return 'compares no placeholder Vigil knows';
  return placeholderCondition(side, effective, other, host, mapped);
}

/** Maps one comparison with a placeholder into `mapped`; answers why it cannot, or undefined when it did. */
type ComparisonMapper = (
  side: Side,
  op: Op,
  value: string,
  host: ConditionHost,
  mapped: MappedConditions,
) => string | undefined;

const placeholderCondition: ComparisonMapper = (side, op, value, host, mapped) => {
  const http = host === 'http';
  if (side.fn === 'len') return 'Vigil has no length assertion';
  switch (side.placeholder) {
    case 'CONNECTED':
      // Every Vigil check fails when it cannot connect: the condition is what a check is.
      return op === 'eq' && value === 'true' ? undefined : 'Vigil checks always require a connection';
    case 'STATUS':
      return http ? statusCondition(op, value, mapped) : 'only http checks have a status';
    case 'RESPONSE_TIME': {
      if (!http) return `Vigil's ${host} checks have no response time limit`;
      const asserted = op === 'eq' || op === 'ne' ? undefined : assertedValue(op, value);
      if (!asserted) return 'Vigil compares the response time with <, <=, > or >= a number of milliseconds';
      mapped.assertions.push({ source: 'latency_ms', ...asserted });
      return undefined;
    }
    case 'BODY':
      return bodyCondition(side, op, value, host, mapped);
    case 'CERTIFICATE_EXPIRATION':
      return expiry(op, value, (days) => {
        mapped.certificateDays = days;
      });
    case 'DOMAIN_EXPIRATION':
      return expiry(op, value, (days) => {
        mapped.domainDays = days;
      });
    case 'DNS_RCODE':
      if (host === 'dns' && op === 'eq' && value === 'NOERROR') return undefined;
      return 'Vigil dns checks pass on NOERROR answers only';
    case 'IP':
      return 'Vigil has no assertion on the resolved IP';
    default:
      return `Vigil has no equivalent of [${side.placeholder}]`;
  }
};

/** The spans of codes (100-599) one [STATUS] comparison accepts; undefined when Vigil cannot say it. */
function statusSpans(op: Op, value: string): [number, number][] | undefined {
  const any = /^any\((.*)\)$/s.exec(value);
  if (any) {
    const codes = (any[1] ?? '').split(',').map((code) => Number(code.trim()));
    if (op !== 'eq' || codes.some((code) => !Number.isInteger(code) || code < 100 || code > 599))
      return undefined;
    return codes.map((code) => [code, code]);
  }
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 100 || n > 599) return undefined;
  const spans: Record<Op, [number, number][]> = {
    eq: [[n, n]],
    ne: [
      [100, n - 1],
      [n + 1, 599],
    ],
    lt: [[100, n - 1]],
    lte: [[100, n]],
    gt: [[n + 1, 599]],
    gte: [[n, 599]],
  };
  return spans[op].filter(([lo, hi]) => lo <= hi);
}

/** Narrows the accepted statuses by one [STATUS] condition (Gatus requires every condition). */
function statusCondition(op: Op, value: string, mapped: MappedConditions): string | undefined {
  const spans = statusSpans(op, value);
  if (!spans) return 'Vigil compares the status with codes 100-599 (==, !=, <, <=, >, >= or == any(...))';
  const narrowed = (mapped.statusSpans ?? [[100, 599]]).flatMap(([lo, hi]) =>
    spans.flatMap(([a, b]): [number, number][] =>
      Math.max(lo, a) <= Math.min(hi, b) ? [[Math.max(lo, a), Math.min(hi, b)]] : [],
    ),
  );
  if (narrowed.length === 0) return 'no status passes it with the other [STATUS] conditions';
  if (narrowed.length > MAX_EXPECTED_STATUSES)
    return `Vigil takes at most ${MAX_EXPECTED_STATUSES} codes and ranges`;
  mapped.statusSpans = narrowed;
  return undefined;
}

/** The check's status fields: one code as expected_status, else codes and ranges as expected_statuses. */
export function statusFields(spans: [number, number][]): Record<string, unknown> {
  const [only] = spans;
  if (spans.length === 1 && only && only[0] === only[1]) return { expected_status: only[0] };
  return { expected_statuses: spans.map(([lo, hi]) => (lo === hi ? lo : `${lo}-${hi}`)) };
}

const bodyCondition: ComparisonMapper = (side, op, value, host, mapped) => {
  if (host === 'dns' && side.path === '' && !side.fn) {
    if (op !== 'eq' || FUNCTION_VALUE.test(value)) return 'Vigil dns checks match one expected answer';
    if (mapped.dnsExpected !== undefined) return `a second expected answer (${mapped.dnsExpected} kept)`;
    mapped.dnsExpected = value;
    return undefined;
  }
  if (host !== 'http') return `Vigil's ${host} checks read no body`;
  if (side.fn === 'has') {
    const path = jsonPath(side.path);
    if (!path || op !== 'eq' || (value !== 'true' && value !== 'false')) {
      return 'Vigil asserts has() == true or false on a dotted json path';
    }
    mapped.assertions.push({ source: 'json', path, op: 'exists', value: value === 'true' });
    return undefined;
  }
  const asserted = assertedValue(op, value);
  if (!asserted) return 'Vigil has no assertion for this comparison (any() and != pat() have none)';
  if (side.path === '') {
    mapped.assertions.push({ source: 'body', ...asserted });
    return undefined;
  }
  const path = jsonPath(side.path);
  if (!path) return 'Vigil reads dotted json paths only (no [*] wildcards)';
  mapped.assertions.push({ source: 'json', path, ...asserted });
  return undefined;
};

/** `> 48h`: the days before expiry to report, rounded up; other comparisons have no equivalent. */
function expiry(op: Op, value: string, set: (days: number) => void): string | undefined {
  const seconds = goDurationSeconds(value);
  if ((op !== 'gt' && op !== 'gte') || seconds === undefined) {
    return 'Vigil reports an expiry within a number of days (> <duration>)';
  }
  set(Math.min(3650, Math.ceil(seconds / 86_400)));
  return undefined;
}
