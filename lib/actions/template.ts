import type { StateChangeEvent } from '../notify/records.ts';
import type { ActionRecord } from './records.ts';

/**
 * Action templates (SPEC.md "Actions", DECISIONS.md "Actions"): `{{name}}` placeholders in the URL
 * and the body, filled from the built-in variables and a manual run's `vars`. Unknown placeholders
 * stay as written, so a literal `{{` in a payload survives. In a JSON body each value is escaped as
 * JSON string content: a value can never close its string and inject fields.
 */

/** A template variable's name (also the rule for a manual run's `vars` keys). */
export const TEMPLATE_VAR_NAME = /^[a-z_][a-z0-9_]*$/;
const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;
const JSON_MEDIA_TYPE = /^\s*(?:application|text)\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** The callback URL path of an execution; the events endpoint of DECISIONS.md "Actions". */
export function callbackPath(executionId: string): string {
  return `/v1/actions/executions/${executionId}/events`;
}

/** Replaces each known `{{name}}` with its value; with `json` the value is escaped for a JSON string. */
export function fillTemplate(
  template: string,
  vars: Readonly<Record<string, string>>,
  options: { json: boolean },
): string {
  return template.replace(PLACEHOLDER, (written, name: string) => {
    if (!Object.hasOwn(vars, name)) return written;
    const value = vars[name] ?? '';
    return options.json ? JSON.stringify(value).slice(1, -1) : value;
  });
}

/** The Content-Type header's value, whatever the case of its name. */
export function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type') return value;
  }
  return undefined;
}

/**
 * Whether a body is JSON: the headers say so, or they name no Content-Type and the filled body
 * parses as JSON (the request then gets `Content-Type: application/json`).
 */
export function isJsonBody(headers: Readonly<Record<string, string>>, filledBody: string): boolean {
  const contentType = contentTypeOf(headers);
  if (contentType !== undefined) return JSON_MEDIA_TYPE.test(contentType);
  if (filledBody.trim() === '') return false;
  try {
    JSON.parse(filledBody);
    return true;
  } catch {
    return false;
  }
}

/** What a run's callback variables are made of: the token and where Vigil is reached. */
export interface CallbackVars {
  token: string;
  /** VIGIL_PUBLIC_URL; unset, callback_url is the bare path and the pipeline prefixes Vigil's address. */
  publicUrl?: string;
}

/** The built-in variables of one run; state-change context only when an event fired it. */
export function builtInVars(
  action: Pick<ActionRecord, 'id' | 'name'>,
  executionId: string,
  nowMs: number,
  event?: StateChangeEvent,
  callback?: CallbackVars,
): Record<string, string> {
  const vars: Record<string, string> = {
    execution_id: executionId,
    action_id: action.id,
    action_name: action.name,
    timestamp: new Date(nowMs).toISOString(),
  };
  if (event) {
    vars.entity_id = event.entity_id;
    vars.entity_name = event.entity_name;
    vars.check_id = event.check_id;
    vars.from_state = event.from_state;
    vars.to_state = event.to_state;
    vars.transition_id = event.transition_id;
  }
  if (callback) {
    const base = (callback.publicUrl ?? '').replace(/\/+$/, '');
    vars.callback_url = `${base}${callbackPath(executionId)}`;
    vars.callback_token = callback.token;
  }
  return vars;
}
