import * as z from 'zod';
import type { Role, Scope } from '../principal.ts';

/** The scopes an MCP client may ask for (docs/auth.md "OAuth for MCP clients"), in their canonical order. */
export const SCOPES = ['read', 'write', 'admin'] as const satisfies readonly Scope[];

export const scopeSchema = z.enum(SCOPES);

/** The scopes of a space-separated `scope` parameter, deduplicated and in canonical order; undefined when one is unknown. */
export function parseScopeParam(value: string | undefined): Scope[] | undefined {
  const words = (value ?? '').split(' ').filter((w) => w !== '');
  if (!words.every((w): w is Scope => (SCOPES as readonly string[]).includes(w))) return undefined;
  return sortScopes(words);
}

/** Deduplicated, in canonical order. */
export function sortScopes(scopes: readonly Scope[]): Scope[] {
  return SCOPES.filter((s) => scopes.includes(s));
}

/** The scopes a person of `role` may grant: viewers read, members read and write, admins all three. */
export function grantableScopes(role: Role): Scope[] {
  if (role === 'admin') return [...SCOPES];
  if (role === 'member') return ['read', 'write'];
  return ['read'];
}

/** `read write`: the form the token endpoint answers and the authorize request carries. */
export const scopeText = (scopes: readonly Scope[]) => sortScopes(scopes).join(' ');
