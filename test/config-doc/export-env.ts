import { expect } from 'vitest';
import type { DocKey } from '../../lib/config-doc/kind.ts';
import { envReferenceName } from '../../lib/config-doc/secrets.ts';
import { CONFIG_KINDS } from '../../lib/features/feature-routes.ts';
import { FIXTURES } from './fixtures/index.ts';

type Doc = Record<string, unknown>;

/** An object's identity, from its document form as the kind parses it. */
export const identityOf = (key: DocKey, doc: unknown) =>
  CONFIG_KINDS[key].identity(CONFIG_KINDS[key].schema.parse(doc));

const at = (value: unknown, path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, part) => (v as Record<string | number, unknown> | undefined)?.[part], value);

/** Every `${NAME}` string of `value`, with its path. */
function references(
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; name: string }[] {
  const name = envReferenceName(value);
  if (name !== undefined) return [{ path, name }];
  if (Array.isArray(value)) return value.flatMap((item, i) => references(item, [...path, i]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => references(item, [...path, key]));
  return [];
}

/**
 * The environment an export needs to rebuild the fixture tenant: each `${VIGIL_…}` reference the
 * export writes for a stored secret, set to the value the (resolved) fixture document gave it. Its
 * values are exactly the tenant's secrets.
 */
export function envForExport(exported: Doc, source: Doc): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { key } of FIXTURES) {
    const sources = new Map((source[key] as Doc[]).map((doc) => [identityOf(key, doc), doc]));
    for (const object of exported[key] as Doc[]) {
      const from = sources.get(CONFIG_KINDS[key].identity(object));
      for (const ref of references(object)) {
        const value = at(from, ref.path);
        expect(typeof value, `${key} ${ref.path.join('.')}: the fixture's secret`).toBe('string');
        env[ref.name] = value as string;
      }
    }
  }
  return env;
}
