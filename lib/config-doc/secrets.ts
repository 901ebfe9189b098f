import * as z from 'zod';
import { SECRET_PLACEHOLDER } from './kind.ts';

/**
 * Secrets in documents (docs/config.md "Secrets"). A string that is exactly `${NAME}` (upper
 * snake) is a reference to an environment variable. The CLI resolves them on the client before it
 * sends a document; the server never reads its own environment for them. One that reaches the
 * server unresolved equals the stored secret in a plan, makes a create fail, and keeps the stored
 * secret in an update. Exports write every stored secret as such a reference.
 */
const ENV_REFERENCE = /^\$\{([A-Z][A-Z0-9_]*)\}$/;

/** A reference where a document may hold one in place of a checked secret (a channel's token, key). */
export const envReferenceSchema = z.string().regex(ENV_REFERENCE).meta({
  description:
    'A reference ${NAME} to an environment variable of the CLI: the secret stays out of the document',
});

/** The variable an unresolved `${NAME}` names, or undefined for any other value. */
export function envReferenceName(value: unknown): string | undefined {
  return typeof value === 'string' ? ENV_REFERENCE.exec(value)?.[1] : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Every string of `value` replaced by `replace(string, path)`; the rest copied as it is. */
function mapStrings(value: unknown, replace: (text: string, path: string) => unknown, path = ''): unknown {
  if (typeof value === 'string') return replace(value, path);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, replace, `${path}[${i}]`));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = mapStrings(item, replace, path === '' ? key : `${path}.${key}`);
  return out;
}

/** The path and name of the first unresolved reference in an object, if any. */
export function firstEnvReference(doc: unknown): { path: string; name: string } | undefined {
  let found: { path: string; name: string } | undefined;
  mapStrings(doc, (text, path) => {
    const name = envReferenceName(text);
    if (name !== undefined && found === undefined) found = { path, name };
    return text;
  });
  return found;
}

/** Every unresolved reference in an object, with its path, in document order. */
export function envReferences(doc: unknown): { path: string; name: string }[] {
  const found: { path: string; name: string }[] = [];
  mapStrings(doc, (text, path) => {
    const name = envReferenceName(text);
    if (name !== undefined) found.push({ path, name });
    return text;
  });
  return found;
}

/** The object with each unresolved reference as `********`, which the API reads as "keep the stored secret". */
export function keepingStoredSecrets<D>(doc: D): D {
  return mapStrings(doc, (text) => (envReferenceName(text) === undefined ? text : SECRET_PLACEHOLDER)) as D;
}

/**
 * Resolves references against `env` (what the CLI does before sending a document); answers the
 * names that were not set, whose references stay as they are.
 */
export function resolveEnvReferences<T>(value: T, env: Record<string, string | undefined>) {
  const missing = new Set<string>();
  const resolved = mapStrings(value, (text) => {
    const name = envReferenceName(text);
    if (name === undefined) return text;
    const set = env[name];
    if (set === undefined) missing.add(name);
    return set ?? text;
  }) as T;
  return { value: resolved, missing: [...missing] };
}

/** An environment variable's name from its parts: upper snake, every other character `_`. */
export function envNameOf(...parts: string[]): string {
  return parts
    .map((part) => part.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, ''))
    .filter(Boolean)
    .join('_')
    .toUpperCase();
}

/**
 * An object as exported: each `********` (a stored secret) replaced by a reference to the
 * variable `VIGIL_<LIST>_<IDENTITY>_<PATH>`, so the export holds no secret and names what to set.
 */
export function exportedSecrets<D>(key: string, identity: string, doc: D): D {
  return mapStrings(doc, (text, path) =>
    text === SECRET_PLACEHOLDER ? `\${${envNameOf('VIGIL', key, identity, path)}}` : text,
  ) as D;
}
