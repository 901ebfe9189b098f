import type { Schemas } from '../api/client';
import { type AssertionRow, assertionsOf, rowsOf } from './assertions-editor';
import type { CheckConfigField, CheckType } from './check-types/form';
import {
  emptyScheduleDraft,
  onSchedule,
  scheduleConfigOf,
  scheduleDraftOf,
} from './check-types/push-schedule';
import { checkTypeForm } from './check-types/registry';
import { DEFAULT_LOCATION, defaultQuorum } from './locations';
import { type TrustDraft, trustBodyOf, trustDraftOf } from './tls-trust-fields';

/**
 * A check form's draft: every input as typed (strings), made from a check or a type's defaults,
 * and turned into the API body on submit (SPEC.md "Check").
 */

/** The form's state: every input as typed (strings), turned into a body on submit. */
export interface CheckDraft {
  check_type: CheckType;
  /** Blank: no name of its own, the API derives one from the type and target. */
  name: string;
  target_url: string;
  method: string;
  headers: string;
  body: string;
  expected_status: string;
  /** Codes and ranges, comma-separated ("200-299, 304"); blank: exactly expected_status. */
  expected_statuses: string;
  body_contains: string;
  assertions: AssertionRow[];
  /** Blank: never degraded by latency. */
  degraded_latency_ms: string;
  interval_seconds: string;
  timeout_ms: string;
  failure_threshold: string;
  /** Blank: the default (1, any single success recovers). */
  success_threshold: string;
  enabled: boolean;
  /** The type's config inputs by key (./check-types/<type>.ts declares them). */
  config: Record<string, string>;
  /**
   * An edited check's config keys the form has no input for (a gRPC check's use_tls and metadata,
   * values ********): sent back as read, so an edit keeps them (the API keeps ******** values).
   */
  configKept?: Record<string, unknown>;
  /** A ratio, 0 < t < 1 (0.999); blank: no target. */
  slo_target: string;
  /** Per-check TLS trust (types whose form has `tls`); blank: none. */
  trust: TrustDraft;
  /** Pull checks: the location names it is probed from (["default"]: the runtime's own workers). */
  locations: string[];
  /** With several locations: how many must fail; blank: the majority. */
  quorum: string;
  /** An edited check's locations and quorum as read: an edit sends them only when they change. */
  storedLocations?: { locations: string[]; quorum: string };
}

/** An empty draft of a type: blank inputs mean "the default". */
export function emptyDraft(check_type: CheckType): CheckDraft {
  return {
    check_type,
    name: '',
    target_url: '',
    method: 'GET',
    headers: '',
    body: '',
    expected_status: '',
    expected_statuses: '',
    body_contains: '',
    assertions: [],
    degraded_latency_ms: '',
    interval_seconds: '',
    timeout_ms: '',
    failure_threshold: '',
    success_threshold: '',
    enabled: true,
    config: {
      ...Object.fromEntries(checkTypeForm(check_type).fields.map((f) => [f.key, f.options?.[0] ?? ''])),
      // A push check's schedule inputs (./check-types/push-schedule.tsx).
      ...(check_type === 'push' ? emptyScheduleDraft() : {}),
    },
    slo_target: '',
    trust: { ca_pem: '', skip_verify: false },
    locations: [DEFAULT_LOCATION],
    quorum: '',
  };
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
const jsonText = (v: unknown): string => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

/** A json input's value: parsed, or the text as given (the API names what is wrong); blank: left out. */
function jsonValue(input: string): unknown {
  if (input.trim() === '') return undefined;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** A draft holding a stored check's values (header values stay ********: the API keeps them). */
export function draftOf(check: Schemas['Check']): CheckDraft {
  const d = emptyDraft(check.check_type);
  d.name = check.name_is_default ? '' : check.name;
  d.interval_seconds = str(check.interval_seconds);
  d.failure_threshold = str(check.failure_threshold);
  d.success_threshold = str(check.success_threshold);
  d.enabled = check.enabled;
  d.slo_target = str(check.slo_target);
  d.trust = trustDraftOf(check);
  // The API answers the effective quorum: the default one reads as blank (it follows the locations).
  d.locations = [...check.locations];
  d.quorum = check.quorum !== defaultQuorum(check.locations.length) ? String(check.quorum) : '';
  d.storedLocations = { locations: [...d.locations], quorum: d.quorum };
  if (check.check_type !== 'push' && check.check_type !== 'outside') {
    d.timeout_ms = str(check.timeout_ms);
    d.degraded_latency_ms = str(check.degraded_latency_ms);
  }
  if (check.check_type === 'http') {
    d.target_url = check.target_url;
    d.method = check.method;
    d.headers = Object.entries(check.headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
    d.body = check.body ?? '';
    d.expected_status = str(check.expected_status);
    d.expected_statuses = (check.expected_statuses ?? []).join(', ');
    d.body_contains = check.body_contains;
    d.assertions = rowsOf(check.assertions);
  } else {
    const config: Record<string, unknown> = check.config;
    const fields = checkTypeForm(check.check_type).fields;
    for (const f of fields)
      d.config[f.key] = f.kind === 'json' ? jsonText(config[f.key]) : str(config[f.key]);
    d.configKept = Object.fromEntries(
      Object.entries(config).filter(([k]) => !fields.some((f) => f.key === k)),
    );
    if (check.check_type === 'push') {
      // The schedule has inputs of its own: the edit sends it as they read.
      delete d.configKept.schedule;
      Object.assign(d.config, scheduleDraftOf(check.config));
    }
  }
  return d;
}

/** A number when the input holds one, the input itself otherwise (so the API names the field). */
function num(v: string): number | string | undefined {
  const t = v.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (line.trim() === '') continue;
    if (at <= 0) out[line.trim()] = '';
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== ''));
}

/** The API body of a draft: only the fields of its type; blank inputs are left to the defaults. */
export function bodyOf(d: CheckDraft, editing: boolean): Record<string, unknown> {
  // A new push check left blank gets threshold 1, as the field's hint says: one missed report is news.
  const threshold = num(d.failure_threshold) ?? (d.check_type === 'push' && !editing ? 1 : undefined);
  const common = compact({
    // A cron schedule's interval is derived by the API (sending one with it is refused).
    interval_seconds: d.check_type === 'push' && onSchedule(d.config) ? undefined : num(d.interval_seconds),
    failure_threshold: threshold,
    success_threshold: num(d.success_threshold),
    ...(d.check_type === 'push' ? {} : { timeout_ms: num(d.timeout_ms) }),
  });
  // Blank: none on create; on edit, null clears a stored one.
  const slow = num(d.degraded_latency_ms);
  if (d.check_type !== 'push' && (slow !== undefined || editing)) common.degraded_latency_ms = slow ?? null;
  if (!editing) {
    common.check_type = d.check_type;
    common.enabled = d.enabled;
  }
  // Blank: on create, no name; on edit, null goes back to the derived name.
  const name = d.name.trim();
  if (name) common.name = name;
  else if (editing) common.name = null;
  // Blank: no target (on edit, null clears one).
  const slo = num(d.slo_target);
  if (slo !== undefined) common.slo_target = slo;
  else if (editing) common.slo_target = null;
  if (checkTypeForm(d.check_type).tls) Object.assign(common, trustBodyOf(d.trust, editing));
  if (d.check_type !== 'push') Object.assign(common, locationBodyOf(d));
  if (d.check_type !== 'http') return { ...common, config: configOf(d) };
  // A list of accepted statuses stands for expected_status (its first code); blank clears a stored one.
  const statuses = d.expected_statuses.split(/[\s,]+/).filter(Boolean);
  return {
    ...common,
    ...compact({
      target_url: d.target_url.trim(),
      method: d.method,
      expected_status: statuses.length ? undefined : num(d.expected_status),
    }),
    ...(statuses.length || editing
      ? { expected_statuses: statuses.length ? statuses.map((s) => (/^\d+$/.test(s) ? Number(s) : s)) : null }
      : {}),
    body_contains: d.body_contains,
    assertions: assertionsOf(d.assertions),
    headers: parseHeaders(d.headers),
    body: d.method === 'GET' || d.method === 'HEAD' || d.body === '' ? null : d.body,
  };
}

/**
 * The draft's `locations` and `quorum`: on create only when they are not the defaults (a check
 * probed by the runtime alone sends neither); on edit only when they changed, the quorum then as
 * a number or null (the default majority). One location takes no quorum of its own.
 */
function locationBodyOf(d: CheckDraft): Record<string, unknown> {
  const quorum = d.locations.length > 1 ? num(d.quorum) : undefined;
  const stored = d.storedLocations;
  if (!stored) {
    const onlyDefault = d.locations.length === 1 && d.locations[0] === DEFAULT_LOCATION;
    return compact({ locations: onlyDefault ? undefined : d.locations, quorum });
  }
  const moved = d.locations.join('\n') !== stored.locations.join('\n');
  if (!moved && d.quorum === stored.quorum) return {};
  return { ...(moved ? { locations: d.locations } : {}), quorum: quorum ?? null };
}

/** The `config` of a draft: numbers as numbers, text trimmed, blank inputs left to the defaults. */
function configOf(d: CheckDraft): Record<string, unknown> {
  const value = (f: CheckConfigField) => {
    const input = d.config[f.key] ?? '';
    if (f.kind === 'json') return jsonValue(input);
    return f.kind === 'number' ? num(input) : f.kind === 'text' ? input.trim() : input;
  };
  const edited = compact(
    Object.fromEntries(checkTypeForm(d.check_type).fields.map((f) => [f.key, value(f)])),
  );
  return { ...d.configKept, ...edited, ...(d.check_type === 'push' ? scheduleConfigOf(d.config) : {}) };
}
