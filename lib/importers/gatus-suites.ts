import { jsonPath, mapConditions, statusFields } from './gatus-conditions.ts';
import { intervalSeconds, isSecretName, requestHeaders, secretReference } from './gatus-endpoints.ts';
import { asRecord, goDurationSeconds, referencedEnv } from './import-common.ts';

/**
 * A Gatus suite (README "Suites": name, group, enabled, interval, timeout, context, endpoints run in
 * order, each with `store` and `always-run`) as one multistep check (docs/scripted-checks.md): the
 * suite's context its variables, each endpoint a step, a `store` an extraction, and
 * `[CONTEXT].key` in a url, header or body the variable or the earlier step's extraction that
 * holds it. A suite Vigil cannot run as it does (not http, more than 10 steps, a context value
 * only a placeholder Vigil cannot extract) is left out with the reason.
 */

/** docs/scripted-checks.md: a multistep check's most steps, and its total deadline's bound. */
const MAX_STEPS = 10;
const MAX_TIMEOUT_MS = 60_000;
/** Keys of a suite read here (group: by the caller, for the entity). */
const SUITE_KEYS = new Set(['name', 'group', 'enabled', 'interval', 'timeout', 'context', 'endpoints']);
/** Keys of a suite's endpoint read here. */
const STEP_KEYS = new Set([
  'name',
  'url',
  'method',
  'body',
  'headers',
  'conditions',
  'store',
  'always-run',
  'client',
]);
const CONTEXT_REF = /\[CONTEXT\]\.([A-Za-z0-9_.-]+)/gi;
/** A multistep name: a letter or "_", then letters, digits or "_" (lib/check-types/multistep). */
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** `create-user` as `create_user`, a multistep step's or variable's name; undefined when none can be made. */
function stepName(raw: string): string | undefined {
  const name = raw.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^(?=\d)/, '_');
  return NAME.test(name) ? name : undefined;
}

/** Where a context key's value comes from: a variable of the suite's context, or an earlier step's extraction. */
type Holder = { variable: string } | { step: string; name: string };

/** A suite's multistep check, in document form, for `entity`; undefined (with a line) when it cannot be one. */
export function suiteCheck(
  suite: Record<string, unknown>,
  path: string,
  entity: string,
  unmapped: string[],
): Record<string, unknown> | undefined {
  const name = String(suite.name ?? '').trim();
  if (name === '') {
    unmapped.push(`${path}: no name (Gatus requires one), suite left out`);
    return undefined;
  }
  for (const key of Object.keys(suite)) {
    if (!SUITE_KEYS.has(key)) unmapped.push(`${path}.${key}: Vigil has no equivalent, left out`);
  }
  const endpoints = Array.isArray(suite.endpoints) ? suite.endpoints.map(asRecord) : [];
  if (endpoints.length === 0 || endpoints.some((e) => e === undefined)) {
    unmapped.push(`${path}.endpoints: a suite runs a list of endpoints (mappings), suite left out`);
    return undefined;
  }
  if (endpoints.length > MAX_STEPS) {
    unmapped.push(
      `${path}.endpoints: ${endpoints.length} endpoints; a multistep check runs at most ${MAX_STEPS}, suite left out`,
    );
    return undefined;
  }
  const holders = new Map<string, Holder>();
  const variables = contextVariables(suite.context, `${path}.context`, name, holders, unmapped);
  const steps: Record<string, unknown>[] = [];
  let insecure = false;
  for (const [index, endpoint] of (endpoints as Record<string, unknown>[]).entries()) {
    const at = `${path}.endpoints[${index}]`;
    const step = suiteStep(endpoint, at, holders, unmapped);
    if (typeof step === 'string') {
      unmapped.push(`${at}: ${step}, suite left out`);
      return undefined;
    }
    insecure ||= step.insecure;
    steps.push(step.step);
  }
  const interval = intervalSeconds(suite.interval, `${path}.interval`, unmapped);
  return {
    entity,
    name,
    check_type: 'multistep',
    ...(interval === undefined ? {} : { interval_seconds: interval }),
    ...(suite.enabled === false ? { enabled: false } : {}),
    timeout_ms: suiteTimeout(suite.timeout, `${path}.timeout`, unmapped),
    ...(insecure ? { tls: { skip_verify: true } } : {}),
    config: { ...(Object.keys(variables).length > 0 ? { variables } : {}), steps },
  };
}

/** The suite's context as variables; a credential's value (by its name) a secret held as a `${ENV}` reference. */
function contextVariables(
  raw: unknown,
  path: string,
  suiteName: string,
  holders: Map<string, Holder>,
  unmapped: string[],
): Record<string, { value: string; secret?: true }> {
  const context = asRecord(raw);
  if (raw !== undefined && !context) unmapped.push(`${path}: not a mapping, left out`);
  const variables: Record<string, { value: string; secret?: true }> = {};
  for (const [key, value] of Object.entries(context ?? {})) {
    const variable = stepName(key);
    if (!variable || (typeof value === 'object' && value !== null)) {
      unmapped.push(`${path}.${key}: Vigil's variables are named text values, left out`);
      continue;
    }
    holders.set(key, { variable });
    if (!isSecretName(key) || referencedEnv(value)) {
      variables[variable] = { value: String(value) };
      continue;
    }
    variables[variable] = {
      value: secretReference(`${path}.${key}`, suiteName, key, unmapped),
      secret: true,
    };
  }
  return variables;
}

/** One endpoint as a step; a sentence why it cannot be one. */
function suiteStep(
  endpoint: Record<string, unknown>,
  path: string,
  holders: Map<string, Holder>,
  unmapped: string[],
): { step: Record<string, unknown>; insecure: boolean } | string {
  const name = stepName(String(endpoint.name ?? ''));
  if (!name) return 'its name cannot name a step';
  for (const key of Object.keys(endpoint)) {
    if (!STEP_KEYS.has(key)) unmapped.push(`${path}.${key}: a multistep step has no equivalent, left out`);
  }
  const url = String(endpoint.url ?? '');
  if (!/^https?:\/\//i.test(url)) return `"${url}" is not an http(s) url, which a multistep step needs`;
  const templated = (text: string, at: string) => withReferences(text, at, holders);
  const stepUrl = templated(url, `${path}.url`);
  if (typeof stepUrl !== 'string') return stepUrl.problem;
  const step: Record<string, unknown> = { name, url: stepUrl };
  if (typeof endpoint.method === 'string' && endpoint.method.toUpperCase() !== 'GET')
    step.method = endpoint.method.toUpperCase();
  if (typeof endpoint.body === 'string' && endpoint.body !== '') {
    const body = templated(endpoint.body, `${path}.body`);
    if (typeof body !== 'string') return body.problem;
    step.body = body;
  }
  const headers = requestHeaders(endpoint, path, name, unmapped);
  if (headers) {
    const filled: Record<string, string> = {};
    for (const [header, value] of Object.entries(headers)) {
      const text = templated(value, `${path}.headers.${header}`);
      if (typeof text !== 'string') return text.problem;
      filled[header] = text;
    }
    step.headers = filled;
  }
  Object.assign(step, stepConditions(endpoint.conditions, path, unmapped));
  const extract = extractions(endpoint.store, `${path}.store`, name, holders, unmapped);
  if (extract) step.extract = extract;
  if (endpoint['always-run'] === true) {
    unmapped.push(
      `${path}.always-run: a multistep check stops at its first failing step, so this one runs only when the steps before it pass`,
    );
  }
  const client = asRecord(endpoint.client);
  const seconds = goDurationSeconds(client?.timeout);
  if (seconds !== undefined)
    step.timeout_ms = Math.min(MAX_TIMEOUT_MS, Math.max(100, Math.round(seconds * 1000)));
  for (const key of Object.keys(client ?? {})) {
    if (key !== 'timeout' && key !== 'insecure')
      unmapped.push(`${path}.client.${key}: no equivalent, left out`);
  }
  return { step, insecure: client?.insecure === true };
}

/** `[CONTEXT].token` in a text as the `{{…}}` of whatever holds it; a problem naming a key nothing holds. */
function withReferences(
  text: string,
  path: string,
  holders: Map<string, Holder>,
): string | { problem: string } {
  let missing: string | undefined;
  const filled = text.replace(CONTEXT_REF, (whole, key: string) => {
    const holder = holders.get(key);
    if (!holder) {
      missing ??= key;
      return whole;
    }
    return 'variable' in holder
      ? `{{variables.${holder.variable}}}`
      : `{{steps.${holder.step}.${holder.name}}}`;
  });
  if (missing !== undefined)
    return { problem: `${path} uses [CONTEXT].${missing}, which no context value or earlier store holds` };
  return filled;
}

/** The step's status and assertions from Gatus's conditions (the http check's mapping). */
function stepConditions(raw: unknown, path: string, unmapped: string[]): Record<string, unknown> {
  const conditions = Array.isArray(raw) ? raw.map(String) : [];
  const mapped = mapConditions(conditions, 'http');
  for (const line of mapped.unmapped) unmapped.push(`${path}.conditions: ${line}`);
  const fields: Record<string, unknown> =
    mapped.assertions.length > 0 ? { assertions: mapped.assertions } : {};
  const spans = mapped.statusSpans;
  if (!spans) {
    if (conditions.length > 0)
      unmapped.push(`${path}.conditions: no [STATUS] condition; the step expects a 2xx status`);
    return fields;
  }
  const status = statusFields(spans);
  if ('expected_status' in status) return { ...fields, ...status };
  if (spans.every(([lo, hi]) => lo >= 200 && hi <= 299)) {
    if (!(spans.length === 1 && spans[0]?.[0] === 200 && spans[0][1] === 299))
      unmapped.push(`${path}.conditions: a step expects one status or any 2xx; any 2xx kept`);
    return fields;
  }
  unmapped.push(`${path}.conditions: a step expects one status or any 2xx; any 2xx kept`);
  return fields;
}

/** `store: {token: "[BODY].token"}` as the step's extractions; what Vigil cannot extract is listed. */
function extractions(
  raw: unknown,
  path: string,
  step: string,
  holders: Map<string, Holder>,
  unmapped: string[],
): Record<string, unknown> | undefined {
  const store = asRecord(raw);
  if (!store) return undefined;
  const extract: Record<string, unknown> = {};
  for (const [key, placeholder] of Object.entries(store)) {
    const name = stepName(key);
    const source = extractionOf(String(placeholder));
    if (!name || !source) {
      unmapped.push(
        `${path}.${key}: Vigil extracts [BODY].<json path> and [HEADER].<name> only (not ${String(placeholder)}), left out`,
      );
      continue;
    }
    extract[name] = source;
    holders.set(key, { step, name });
  }
  return Object.keys(extract).length > 0 ? extract : undefined;
}

function extractionOf(placeholder: string): Record<string, string> | undefined {
  const header = /^\[HEADER\]\.([!#$%&'*+.^_`|~0-9A-Za-z-]+)$/i.exec(placeholder.trim());
  if (header?.[1]) return { source: 'header', name: header[1] };
  const body = /^\[BODY\]((?:\.|\[).+)$/i.exec(placeholder.trim());
  const path = body?.[1] ? jsonPath(body[1]) : undefined;
  return path ? { source: 'json_body', path } : undefined;
}

/** The suite's timeout as the check's total deadline (at most 60 s); Gatus's default is 10 minutes. */
function suiteTimeout(raw: unknown, path: string, unmapped: string[]): number {
  const seconds = raw === undefined ? 600 : goDurationSeconds(raw);
  if (seconds === undefined || seconds <= 0) {
    unmapped.push(`${path}: "${String(raw)}" is not a duration; a 60 s deadline set`);
    return MAX_TIMEOUT_MS;
  }
  const ms = Math.round(seconds * 1000);
  if (ms > MAX_TIMEOUT_MS)
    unmapped.push(
      `${path}: ${raw === undefined ? "Gatus's default 10m" : String(raw)}; a multistep check's deadline is at most 60 s`,
    );
  return Math.max(100, Math.min(MAX_TIMEOUT_MS, ms));
}
