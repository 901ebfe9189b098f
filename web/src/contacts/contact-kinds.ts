import type { Schemas } from '../api/client';
import type { PersonUseForm } from '../notify/channel-forms/form';
import { PROVIDER_FORMS } from '../notify/channel-forms/registry';

export type Kind = Schemas['ContactMethod']['kind'];

type Forms = typeof PROVIDER_FORMS;

/** The console's own kind: it reaches the signed-in person here, through no provider, and takes no address. */
const CONSOLE = { console: { label: 'This console' } } satisfies Record<string, PersonUseForm>;

/** The kinds the providers' forms describe (their `people`), and the console's own. */
type Described =
  | { [T in keyof Forms]: Forms[T] extends { people: infer P } ? keyof P : never }[keyof Forms]
  | keyof typeof CONSOLE;

/**
 * Compiles only while the described kinds are exactly the API's: `tsc -p web` fails until a kind
 * the API adds is described by its provider's form (web/src/notify/channel-forms/<provider>.ts).
 */
const EVERY_KIND_DESCRIBED: [Kind] extends [Described] ? ([Described] extends [Kind] ? true : never) : never =
  true;

/**
 * The console's contact method kinds (the API's: lib/contacts/kinds/registry.ts, derived from the
 * same providers), each with its words and the shape of its address, gathered from the providers'
 * forms, as a provider serves alert channels and people alike; by label, the order the kind select
 * offers them.
 */
export const CONTACT_KINDS = Object.fromEntries(
  Object.entries<PersonUseForm>(
    Object.assign(
      {},
      ...Object.values(PROVIDER_FORMS).map((form) => ('people' in form ? form.people : {})),
      CONSOLE,
    ),
  ).sort(([, a], [, b]) => a.label.localeCompare(b.label, 'en')),
) as Record<Kind, PersonUseForm> & (typeof EVERY_KIND_DESCRIBED extends true ? unknown : never);
