import type { PersonUse } from '../../providers/person-use.ts';
import type { Provider } from '../../providers/provider.ts';
import { PROVIDERS } from '../../providers/registry.ts';
import { consoleContact } from './console.ts';

/**
 * Every kind of contact method, by its name: the messaging providers' people uses (each declared in
 * its provider's one file, lib/providers/<provider>.ts `people`, and listed once in the provider
 * registry, PROVIDERS) and the console's own, which reaches the signed-in person through no provider.
 */

/** The kinds of contact method the providers serve. */
type KindsOf<P> = { [K in keyof P]: P[K] extends { people: infer M } ? keyof M & string : never }[keyof P];

/** Every provider's people uses, by kind, in the providers' order; a kind two providers serve throws. */
export function peopleOf<P extends Record<string, Provider>>(providers: P): Record<KindsOf<P>, PersonUse> {
  const people = new Map<string, PersonUse>();
  for (const [name, { people: uses }] of Object.entries(providers)) {
    for (const [kind, use] of Object.entries(uses ?? {})) {
      if (people.has(kind))
        throw new Error(`the contact method kind ${kind} is served twice (again by ${name})`);
      people.set(kind, use);
    }
  }
  return Object.fromEntries(people) as Record<KindsOf<P>, PersonUse>;
}

/**
 * The kinds as the API document has listed them since they came, so its contact method variants
 * and a client generated from it keep their order; a kind added later follows them in the provider
 * registry's order, and is not added here.
 */
const DOCUMENT_ORDER: readonly string[] = ['email', 'sms', 'voice', 'pushover', 'telegram', 'ntfy'];

const place = (kind: string) => {
  const at = DOCUMENT_ORDER.indexOf(kind);
  return at < 0 ? DOCUMENT_ORDER.length : at;
};

const PEOPLE_USES = peopleOf(PROVIDERS);

/** The kinds, by name: the providers' in the document's order, then the console's. */
export const CONTACT_KIND_DEFINITIONS = Object.fromEntries([
  ...Object.entries(PEOPLE_USES).sort(([a], [b]) => place(a) - place(b)),
  ['console', consoleContact],
]) as Record<keyof typeof PEOPLE_USES | 'console', PersonUse>;

/** A contact method's kind: "email", "sms", "console". */
export type ContactKind = keyof typeof CONTACT_KIND_DEFINITIONS;

/** The kinds, in the API document's order (a non-empty tuple, as z.enum wants it). */
export const CONTACT_KINDS = Object.keys(CONTACT_KIND_DEFINITIONS) as [ContactKind, ...ContactKind[]];

/** Whether `kind` is a registered kind. */
function isContactKind(kind: string): kind is ContactKind {
  return Object.hasOwn(CONTACT_KIND_DEFINITIONS, kind);
}

/** A stored kind as a registered kind; one no longer registered throws. */
export function registeredKind(kind: string): ContactKind {
  if (!isContactKind(kind)) throw new Error(`no contact method kind ${JSON.stringify(kind)} is registered`);
  return kind;
}

/** A kind's definition; a stored kind no longer registered throws. */
export function contactKind(kind: string): PersonUse {
  return CONTACT_KIND_DEFINITIONS[registeredKind(kind)];
}
