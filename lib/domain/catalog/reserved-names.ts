/** Names that would reach an object's prototype when used as keys: never accepted as a user key. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The message for a reserved name, the same wherever one is refused. */
export const RESERVED_NAME_MESSAGE =
  'Choose another name: __proto__, constructor and prototype are reserved.';

/** True when `name` may be used as a key of an object built from user input. */
export function isAllowedKey(name: string): boolean {
  return !RESERVED_NAMES.has(name);
}
