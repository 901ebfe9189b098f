import type * as z from 'zod';
import type { InvokeAnswer, InvokeCall, InvokeCaller } from '../http/router.ts';

/**
 * The configuration document (docs/config.md, DECISIONS "Configuration as code"): one file per
 * kind of object in its feature's folder (lib/<feature>/config-kind.ts, the core ones in
 * lib/features/kinds/), each a `ConfigKind` declared on its feature's mount (`configKinds`) and
 * gathered from the mount list (./registry.ts), and the engine (plan, apply, export) that works
 * through them. This folder names no feature.
 *
 * A kind reads and writes through the tenant's own API, called in-process as the caller
 * (lib/http/routing/route-invoker.ts): every object's write is validated, limited and audited exactly as
 * the same call over HTTP would be.
 */

/**
 * The lists of the document, one per kind: each kind's file adds its key to this interface
 * (`declare module '…/config-doc/kind.ts' { interface DocLists { checks: true } }`), so a
 * reference to another list is checked, and this folder names none of them. Their order is the
 * kinds' places (`after`, documentOrder below).
 *
 * @public (each kind's file extends it)
 */
// biome-ignore lint/suspicious/noEmptyInterface: each kind's file adds its list (declaration merging)
export interface DocLists {}

/** A list of the document: a kind's key (`checks`, `escalation_policies`). */
export type DocKey = keyof DocLists & string;

/** How a write-only secret reads back from the API; never compared, exported as a `${ENV}` reference. */
export const SECRET_PLACEHOLDER = '********';

/** One call of the tenant's API as the caller; answers whatever the route answered (errors too). */
export type Api = (call: InvokeCall) => Promise<InvokeAnswer>;

/** A reference from one object to another, by the other's identity: `{key: 'entities', identity: 'service/api'}`. */
export interface Reference {
  key: DocKey;
  identity: string;
}

/**
 * Identities and ids of the tenant's objects, both ways, per kind. The engine fills it from every
 * kind's `read` (in the document's order, so a check's read finds its entity's identity) and adds each
 * object an apply creates, before the objects that refer to it are applied.
 */
export interface NameIndex {
  /** The id of the object with this identity; undefined when the tenant has none (yet). */
  id(key: DocKey, identity: string): string | undefined;
  /** The identity of the object with this id; undefined when unknown. */
  identity(key: DocKey, id: string): string | undefined;
  set(key: DocKey, identity: string, id: string): void;
  remove(key: DocKey, identity: string): void;
}

/** An object the tenant has: its id and its document form. */
export interface Current<D> {
  id: string;
  doc: D;
}

/**
 * One kind of object of the document.
 *
 * The document form of an object is its API create body with ids replaced by identities
 * (`entity: "service/api"` for `entity_id`), parsed by `schema` with the API's defaults applied,
 * so two forms of the same object are equal field by field. `read` answers objects in exactly
 * that parsed form (the same keys; secrets as the API reads them, `********`), which is what makes
 * a plan exact and a second apply plan nothing.
 */
export interface ConfigKind<D extends Record<string, unknown> = Record<string, unknown>> {
  key: DocKey;
  /**
   * The kind's place in the document: the lists it comes after (their objects are created and
   * updated first, deleted after). Every list its objects name (`references`), and where the order
   * is a choice (the catalog first, integrations last), the list it follows. See documentOrder.
   */
  after?: readonly DocKey[];
  /** The object's noun in plans, summaries and errors: `check`. */
  noun: string;
  /**
   * One object of the document's list: derived from the API's request schema of the create route
   * (defaults, limits, enums), with ids replaced by references. It parses the document and is
   * what `/v1/config/schema.json` is generated from (`z.toJSONSchema(…, {io: 'input'})`).
   */
  schema: z.ZodType<D, unknown>;
  /** The object's stable identity in the document (DECISIONS): a blueprint's slug, a check's `<entity>:<name>`. */
  identity(doc: D): string;
  /** The objects this one refers to; each must be in the tenant or the document. */
  references(doc: D): Reference[];
  /**
   * What this object holds for itself alone among its list (a team a policy is the default of):
   * two objects of the document claiming one value of one field are refused, naming both.
   */
  claims?(doc: D): { field: string; value: string }[];
  /** Every object of the tenant, in document form with its id (the index resolves ids of other kinds). */
  read(api: Api, names: NameIndex): Promise<Current<D>[]>;
  /**
   * Creates the object; answers its id. Atomic: when it takes more than one call (a check and its
   * policy), a failure after the first undoes what was created. Throws ConfigApplyError with the
   * API's error on failure.
   */
  create(api: Api, doc: D, names: NameIndex): Promise<string>;
  /**
   * Brings the object from `current` to `doc` (they differ). A secret whose document value is
   * `********` (a reference the environment did not set) keeps the stored secret.
   */
  update(api: Api, current: Current<D>, doc: D, names: NameIndex): Promise<void>;
  /** Deletes the object (apply with prune, for objects the document does not have). */
  remove(api: Api, current: Current<D>): Promise<void>;
}

/** A failed API call of a kind, carrying the route's answer (shown in the apply's per-object results). */
export class ConfigApplyError extends Error {
  override name = 'ConfigApplyError';
  readonly answer: InvokeAnswer;
  constructor(answer: InvokeAnswer, message = describeAnswer(answer)) {
    super(message);
    this.answer = answer;
  }
}

function describeAnswer(answer: InvokeAnswer): string {
  const body = answer.body as { error?: unknown; details?: unknown } | undefined;
  const error = typeof body?.error === 'string' ? body.error : `the API answered ${answer.status}`;
  const details = Array.isArray(body?.details) ? ` ${JSON.stringify(body.details)}` : '';
  return `${error}${details}`;
}

/** Calls the API and answers the body of a 2xx, or throws ConfigApplyError. */
export async function expectOk<T = unknown>(api: Api, call: InvokeCall): Promise<T> {
  const answer = await api(call);
  if (answer.status >= 300) throw new ConfigApplyError(answer);
  return answer.body as T;
}

/** Creates an object: POSTs `body` to its collection's `path` and answers the object made (a kind's `create`). */
export function postNew<T extends object>(api: Api, path: string, body: unknown): Promise<T> {
  return expectOk<T>(api, { method: 'POST', path, body });
}

/** A path segment for an identity or slug in a call's path. */
export const seg = (value: string) => encodeURIComponent(value);

/** One field that differs: its dotted path (`config.url`, `fields.tier`) and both values. */
export interface FieldChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** One planned change (DECISIONS: `{op, kind, id, fields?}`); `id` is the object's identity. */
export interface PlannedChange {
  op: 'create' | 'update' | 'delete';
  kind: DocKey;
  id: string;
  fields?: FieldChange[];
}

/** An unset `${NAME}` reference apply will refuse: the variable, where the document uses it, in words. */
export interface PlanWarning {
  variable: string;
  /** `check service/api:home headers.authorization`: each object to create and the field. */
  used_at: string[];
  message: string;
}

export interface Plan {
  changes: PlannedChange[];
  /** What the document holds that cannot be applied, one line each (an importer's leftovers pass through). */
  unmapped: string[];
  /** One per unset variable a created object refers to: apply refuses those objects. */
  warnings: PlanWarning[];
}

/** One object's outcome in an apply. */
export interface AppliedChange extends PlannedChange {
  status: 'applied' | 'failed';
  error?: string;
}

export interface ApplyResult {
  changes: AppliedChange[];
  unmapped: string[];
  applied: boolean;
  summary: Record<'created' | 'updated' | 'deleted' | 'failed' | 'unchanged', number>;
}

/** The engine as the routes, the MCP tools and the console see it (lib/config-doc/engine.ts builds it). */
export interface ConfigEngine {
  /** The changes applying `document` (YAML or JSON text, or parsed) would make; changes nothing. */
  plan(caller: InvokeCaller, document: unknown, options?: { prune?: boolean }): Promise<Plan>;
  /** Applies the document object by object; `onProgress` hears each object's outcome as it lands. */
  apply(
    caller: InvokeCaller,
    document: unknown,
    options?: { prune?: boolean; onProgress?: (change: AppliedChange) => void },
  ): Promise<ApplyResult>;
  /** The tenant's configuration as a document object (secrets as `${ENV}` references). */
  exportDocument(caller: InvokeCaller): Promise<Record<string, unknown>>;
}

export type { InvokeCaller };

/**
 * A kind with its document type erased, for the registry: the engine handles every kind's objects
 * as plain records, which each kind's own schema produced.
 */
export type AnyConfigKind = ConfigKind<Record<string, unknown>>;

/** Declares a kind with its own document type and answers it erased for the registry (the one cast). */
export function defineKind<D extends Record<string, unknown>>(kind: ConfigKind<D>): AnyConfigKind {
  return kind as unknown as AnyConfigKind;
}

/** What places a kind in the document: its key and the lists it comes after. */
interface Placed<K extends string = DocKey> {
  key: K;
  after?: readonly string[] | undefined;
}

/** The kinds on a circle of `after` among `waiting` (each reaches itself), by key. */
function onCircles(waiting: ReadonlyMap<string, Placed<string>>): string[] {
  const reaches = (from: string, to: string, seen: Set<string>): boolean =>
    (waiting.get(from)?.after ?? []).some(
      (next) => next === to || (!seen.has(next) && waiting.has(next) && reaches(next, to, seen.add(next))),
    );
  return [...waiting.keys()].filter((key) => reaches(key, key, new Set())).sort();
}

/**
 * The document's order of its lists, as the kinds declare their places: each after the lists it
 * names in `after`, and among those free to come next, the first by key (so the order is the same
 * whatever order the kinds are given in). The objects are created and updated in this order and
 * deleted in reverse. Refuses a kind that comes after a list no kind declares, and kinds that come
 * after each other (a circle), naming them.
 */
export function documentOrder<K extends string>(kinds: readonly Placed<K>[]): K[] {
  const waiting = new Map<string, Placed<K>>(
    [...kinds].sort((a, b) => (a.key < b.key ? -1 : 1)).map((kind) => [kind.key, kind]),
  );
  for (const kind of kinds)
    for (const before of kind.after ?? [])
      if (!waiting.has(before))
        throw new Error(`the configuration kind ${kind.key} comes after ${before}, which no kind declares`);
  const order: K[] = [];
  while (waiting.size > 0) {
    const next = [...waiting.values()].find((kind) => (kind.after ?? []).every((key) => !waiting.has(key)));
    if (!next)
      throw new Error(`the configuration kinds ${onCircles(waiting).join(', ')} come after each other`);
    order.push(next.key);
    waiting.delete(next.key);
  }
  return order;
}

const ordered = new WeakMap<object, DocKey[]>();

/** The keys of a set of kinds (keyed by their lists) in the document's order; computed once per set. */
export function keysInOrder(kinds: Readonly<Partial<Record<DocKey, Placed>>>): DocKey[] {
  let keys = ordered.get(kinds);
  if (!keys) {
    keys = documentOrder(Object.values(kinds).filter((kind) => kind !== undefined));
    ordered.set(kinds, keys);
  }
  return keys;
}
