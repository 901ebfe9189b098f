/**
 * The references a multistep check's url, header values and body may hold: `{{variables.name}}`
 * (a configured variable) and `{{steps.<step>.<var>}}` (a value an earlier step extracted). Pure:
 * the config's validation lists them, the probe fills them in.
 */

/** A variable, step or extraction name: a letter or underscore, then letters, digits, underscores. */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const REFERENCE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const VARIABLE = /^variables\.([A-Za-z_][A-Za-z0-9_]{0,63})$/;
const STEP_VALUE = /^steps\.([A-Za-z_][A-Za-z0-9_]{0,63})\.([A-Za-z_][A-Za-z0-9_]{0,63})$/;

export type Reference =
  | { kind: 'variable'; name: string; text: string }
  | { kind: 'step'; step: string; name: string; text: string }
  | { kind: 'unknown'; text: string };

/** The references in a text, in order (`unknown` for a `{{…}}` that is neither form). */
export function references(text: string): Reference[] {
  return [...text.matchAll(REFERENCE)].map((match) => {
    const inner = match[1] ?? '';
    const variable = VARIABLE.exec(inner);
    if (variable?.[1]) return { kind: 'variable', name: variable[1], text: match[0] };
    const step = STEP_VALUE.exec(inner);
    if (step?.[1] && step[2]) return { kind: 'step', step: step[1], name: step[2], text: match[0] };
    return { kind: 'unknown', text: match[0] };
  });
}

/** What a run has so far: the configured variables and each finished step's extracted values. */
export interface TemplateScope {
  variables: Readonly<Record<string, string>>;
  steps: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/**
 * The text with each reference replaced by its value; throws an Error naming the first reference
 * that has none (validation makes that rare: an extraction's value is always set when its step passed).
 */
export function render(text: string, scope: TemplateScope): string {
  return text.replace(REFERENCE, (whole, inner: string) => {
    const variable = VARIABLE.exec(inner);
    const step = STEP_VALUE.exec(inner);
    const value = variable?.[1]
      ? own(scope.variables, variable[1])
      : step?.[1] && step[2]
        ? own(own(scope.steps, step[1]) ?? {}, step[2])
        : undefined;
    if (value === undefined) throw new Error(`${whole} has no value`);
    return value;
  });
}

/** A record's own value (a name such as `constructor` is not one). */
function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
