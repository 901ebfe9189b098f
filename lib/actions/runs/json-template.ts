import { ValidationError } from '../../platform/errors.ts';

/**
 * JSON body templates, escaped by position (docs/actions.md "Templates"). A small tokenizer walks
 * the template and tells placeholders inside a JSON string from placeholders in a bare value
 * position (`"count": {{n}}`): inside a string a value is inserted as JSON string content, so it
 * can never close the string; in a bare position only a JSON number, `true`, `false` or `null` is
 * accepted, so a value can never add a key or a structure. The template need not be valid JSON
 * for this: the positions are those a JSON reader would see.
 */

/** `{{name}}` (spaces allowed inside the braces), anchored where the tokenizer stands. */
const PLACEHOLDER_AT = /\{\{\s*([a-z_][a-z0-9_]*)\s*\}\}/y;
/** What a bare position accepts: one JSON number or literal, nothing else (RFC 8259). */
const JSON_SCALAR = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

/** One piece of a template: literal text, or a placeholder and where it stands. */
export type JsonTemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'placeholder'; name: string; written: string; inString: boolean };

/** Splits a template into text and placeholders, each placeholder knowing whether it stands inside a JSON string. */
export function jsonTemplateParts(template: string): JsonTemplatePart[] {
  const parts: JsonTemplatePart[] = [];
  let text = '';
  let inString = false;
  let i = 0;
  while (i < template.length) {
    PLACEHOLDER_AT.lastIndex = i;
    const placeholder = template.startsWith('{{', i) ? PLACEHOLDER_AT.exec(template) : null;
    if (placeholder) {
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'placeholder', name: placeholder[1] ?? '', written: placeholder[0], inString });
      i += placeholder[0].length;
      continue;
    }
    const ch = template[i] ?? '';
    // Inside a string a backslash escapes the next character (an escaped quote does not end it).
    const step = inString && ch === '\\' ? 2 : 1;
    if (ch === '"') inString = !inString;
    text += template.slice(i, i + step);
    i += step;
  }
  if (text !== '') parts.push({ kind: 'text', text });
  return parts;
}

/**
 * Whether a body template with no Content-Type header is JSON: it parses as a JSON object or
 * array once its placeholders outside strings read as `null`. Decided by the template alone,
 * never by the values, so a value cannot turn JSON escaping off.
 */
export function isJsonTemplate(template: string): boolean {
  const skeleton = jsonTemplateParts(template)
    .map((part) => (part.kind === 'text' ? part.text : part.inString ? part.written : 'null'))
    .join('');
  try {
    const parsed: unknown = JSON.parse(skeleton);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

/**
 * Fills a JSON template by position; an unknown placeholder stays as written. A value in a bare
 * position that is not a JSON number, `true`, `false` or `null` throws a ValidationError on
 * `vars.<name>` (`body_template` when `ownVars` does not hold the name: a built-in variable).
 */
export function fillJsonTemplate(
  template: string,
  vars: Readonly<Record<string, string>>,
  ownVars: Readonly<Record<string, string>> = {},
): string {
  return jsonTemplateParts(template)
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (!Object.hasOwn(vars, part.name)) return part.written;
      const value = vars[part.name] ?? '';
      if (part.inString) return JSON.stringify(value).slice(1, -1);
      if (JSON_SCALAR.test(value)) return value;
      const path = Object.hasOwn(ownVars, part.name) ? `vars.${part.name}` : 'body_template';
      throw ValidationError.field(
        path,
        `{{${part.name}}} stands outside a JSON string, so give it a JSON number, true, false or null (or quote the placeholder for text).`,
      );
    })
    .join('');
}
