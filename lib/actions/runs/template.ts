import type { StateChangeEvent } from '../../domain/states.ts';
import type { ActionRecord } from '../items/action-items.ts';
import { fillJsonTemplate, isJsonTemplate } from './json-template.ts';

/**
 * Action templates (SPEC.md "Actions", DECISIONS.md "Actions"): `{{name}}` placeholders in the URL
 * and the body, filled from the built-in variables and a manual run's `vars`. Unknown placeholders
 * stay as written, so a literal `{{` in a payload survives. A JSON body is filled by position
 * (json-template.ts): a value can never close its string or add fields.
 */

/** A template variable's name (also the rule for a manual run's `vars` keys). */
export const TEMPLATE_VAR_NAME = /^[a-z_][a-z0-9_]*$/;
const PLACEHOLDER = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/g;
const JSON_MEDIA_TYPE = /^\s*(?:application|text)\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

/** The callback URL path of an execution; the events endpoint of DECISIONS.md "Actions". */
function callbackPath(executionId: string): string {
  return `/v1/actions/executions/${executionId}/events`;
}

/** Replaces each known `{{name}}` with its value as written (URLs and bodies that are not JSON). */
export function fillTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (written, name: string) =>
    Object.hasOwn(vars, name) ? (vars[name] ?? '') : written,
  );
}

/** The Content-Type header's value, whatever the case of its name. */
function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type') return value;
  }
  return undefined;
}

/** Whether a Content-Type names JSON (`application/json`, `application/vnd.github+json`, ...). */
function isJsonMediaType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType);
}

/**
 * The body to send and the headers to send it with. The body is a JSON template when the headers'
 * Content-Type is JSON or, with no Content-Type, when the template is a JSON object or array
 * (json-template.ts `isJsonTemplate`; it is then sent as `application/json`); a JSON template is
 * filled by position and may throw a ValidationError (a bare value that is not a JSON scalar).
 * Anything else is filled as written; an empty template sends no body. `ownVars` are the run's
 * `vars`, to name the offending one.
 */
export function fillBody(
  actionHeaders: Readonly<Record<string, string>>,
  template: string,
  vars: Readonly<Record<string, string>>,
  ownVars: Readonly<Record<string, string>> = {},
): { body: string | undefined; headers: Record<string, string> } {
  const headers = { ...actionHeaders };
  if (template === '') return { body: undefined, headers };
  const contentType = contentTypeOf(headers);
  if (contentType !== undefined) {
    const body = isJsonMediaType(contentType)
      ? fillJsonTemplate(template, vars, ownVars)
      : fillTemplate(template, vars);
    return { body, headers };
  }
  if (isJsonTemplate(template))
    return {
      body: fillJsonTemplate(template, vars, ownVars),
      headers: { ...headers, 'content-type': 'application/json' },
    };
  return { body: fillTemplate(template, vars), headers };
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
