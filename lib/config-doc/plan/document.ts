import { parse as parseYaml, YAMLParseError } from 'yaml';
import * as z from 'zod';
import { issueSentence } from '../../http/requests.ts';
import { type ErrorDetail, PayloadTooLargeError, ValidationError } from '../../platform/errors.ts';
import { type AnyConfigKind, type DocKey, keysInOrder } from '../kind.ts';
import { envReferenceName } from '../secrets.ts';

/** The document's header; every document names its format so a later version can be told apart. */
export const API_VERSION = 'vigil/v1';
export const DOC_KIND = 'Config';

/** A document's text at most: Lambda's synchronous payload limit, so both runtimes take the same documents. */
export const MAX_DOCUMENT_BYTES = 6 * 1024 * 1024;
/** Objects in one document at most, over all its lists. */
export const MAX_DOCUMENT_OBJECTS = 20_000;
/** YAML aliases a document may use at most: bounds what a few bytes of anchors can expand to. */
const MAX_YAML_ALIASES = 100;

/** The kinds of a document, by list (the registry, or a test's own kinds). */
export type KindSet = Partial<Record<DocKey, AnyConfigKind>>;

/** A parsed document: each list's objects in the kind's parsed form, and what an importer could not map. */
export interface ConfigDocument {
  lists: Partial<Record<DocKey, Record<string, unknown>[]>>;
  unmapped: string[];
}

/** The JSON Schema document of `/v1/config/schema.json` is generated from the same zod schema that parses. */
export function documentSchema(kinds: KindSet) {
  const lists: Record<string, z.ZodType> = {};
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (kind) lists[key] = z.array(kind.schema).optional();
  }
  return z.strictObject({
    apiVersion: z.literal(API_VERSION),
    kind: z.literal(DOC_KIND),
    // What an importer could not map travels with its document, so a plan can show it.
    unmapped: z.array(z.string().max(2000)).max(MAX_DOCUMENT_OBJECTS).optional(),
    ...lists,
  });
}

/** A zod path as the document's readers write it: `checks[12].config.url`. */
function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text || 'document';
}

function invalid(message: string, details: ErrorDetail[]): never {
  throw new ValidationError(message, details);
}

/** The document's text as data: YAML (JSON is YAML too), with aliases bounded. */
function parseText(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) throw new PayloadTooLargeError(MAX_DOCUMENT_BYTES);
  // JSON is YAML too, but JSON.parse reads a large JSON document many times faster.
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Flow-style YAML starts with a brace too: let the YAML parser read it and say what is wrong.
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: true });
  } catch (err) {
    const message = err instanceof Error ? err.message.split('\n')[0] : 'not YAML or JSON';
    const where = err instanceof YAMLParseError && err.linePos ? `line ${err.linePos[0].line}` : 'document';
    return invalid(`the document is not valid YAML or JSON: ${message}`, [
      { path: where, message: `${message}` },
    ]);
  }
}

function countObjects(kinds: KindSet, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
  let count = 0;
  for (const key of keysInOrder(kinds)) {
    const list = (value as Record<string, unknown>)[key];
    if (Array.isArray(list)) count += list.length;
  }
  if (count > MAX_DOCUMENT_OBJECTS)
    invalid(`the document holds ${count} objects; at most ${MAX_DOCUMENT_OBJECTS} are allowed`, [
      { path: 'document', message: `At most ${MAX_DOCUMENT_OBJECTS} objects are allowed.` },
    ]);
}

/** Two objects of one list with one identity would make the plan ambiguous: 400 naming both. */
function checkDuplicates(kinds: KindSet, lists: ConfigDocument['lists']): void {
  const details: ErrorDetail[] = [];
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    const seen = new Map<string, number>();
    (lists[key] ?? []).forEach((doc, index) => {
      const identity = kind?.identity(doc) ?? '';
      const first = seen.get(identity);
      if (first === undefined) seen.set(identity, index);
      else
        details.push({
          path: `${key}[${index}]`,
          message: `${key}[${first}] and ${key}[${index}] are both ${JSON.stringify(identity)}.`,
        });
    });
  }
  if (details.length > 0)
    invalid(`the document names an object twice: ${details[0]?.message.replace(/\.$/, '')}`, details);
}

/** Two objects of one list claiming what one of them alone may hold (the kind's `claims`): 400 naming both. */
function checkClaims(kinds: KindSet, lists: ConfigDocument['lists']): void {
  const details: ErrorDetail[] = [];
  for (const key of keysInOrder(kinds)) {
    const kind = kinds[key];
    if (!kind?.claims) continue;
    const holder = new Map<string, number>();
    (lists[key] ?? []).forEach((doc, index) => {
      for (const { field, value } of kind.claims?.(doc) ?? []) {
        const claim = `${field}\n${value}`;
        const first = holder.get(claim);
        if (first === undefined) holder.set(claim, index);
        else if (first !== index)
          details.push({
            path: `${key}[${index}].${field}`,
            message: `${key}[${first}] and ${key}[${index}] both have ${JSON.stringify(value)} in ${field}; one of them may.`,
          });
      }
    });
  }
  if (details.length > 0) invalid((details[0]?.message ?? '').replace(/\.$/, ''), details);
}

/** The value at a zod path of the parsed text, if there is one. */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const part of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[part];
  }
  return at;
}

/**
 * An issue's message, or, where the field holds a `${NAME}` the CLI did not fill in (its
 * environment has no NAME) and the field's rule refused it, a sentence that says so: the rule's
 * own message would describe the form of a value the document never gave.
 */
function fieldMessage(value: unknown, issue: z.core.$ZodIssue): string {
  const name = envReferenceName(valueAt(value, issue.path));
  if (name === undefined) return issue.message;
  return `\${${name}} was not filled in: set ${name} in the environment of vigil plan and vigil apply, or write the value here.`;
}

/**
 * Parses a document: YAML or JSON text, or data already parsed (a JSON body). Answers each list's
 * objects parsed by its kind's schema (the API's defaults applied), or throws a ValidationError
 * whose details name each bad path (`checks[12].config.url`).
 */
export function parseDocument(kinds: KindSet, input: unknown): ConfigDocument {
  const value = typeof input === 'string' || Buffer.isBuffer(input) ? parseText(String(input)) : input;
  countObjects(kinds, value);
  const result = documentSchema(kinds).safeParse(value, { error: issueSentence });
  if (!result.success) {
    const seen = new Set<string>();
    const details: ErrorDetail[] = [];
    for (const issue of result.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        const path = pathText(key === undefined ? issue.path : [...issue.path, key]);
        if (seen.has(path)) continue;
        seen.add(path);
        details.push({
          path,
          message: key === undefined ? fieldMessage(value, issue) : 'This list or field is not known.',
        });
      }
    }
    const shown = details.slice(0, 3).map((d) => `${d.path}: ${d.message.replace(/\.$/, '')}`);
    invalid(
      `invalid document: ${shown.join('; ')}${details.length > 3 ? ` (and ${details.length - 3} more)` : ''}`,
      details,
    );
  }
  const data = result.data as Record<string, unknown>;
  const lists: ConfigDocument['lists'] = {};
  for (const key of keysInOrder(kinds)) {
    const list = data[key];
    if (Array.isArray(list)) lists[key] = list as Record<string, unknown>[];
  }
  checkDuplicates(kinds, lists);
  checkClaims(kinds, lists);
  return { lists, unmapped: (data.unmapped as string[] | undefined) ?? [] };
}
