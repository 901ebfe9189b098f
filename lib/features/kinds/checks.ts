import * as z from 'zod';
import { checkNameSchema } from '../../check-types/check-name.ts';
import { minIntervalSeconds } from '../../check-types/config-view.ts';
import { createCheckBody, DEFAULTS } from '../../checks/check-input.ts';
import type { CheckType } from '../../checks/records.ts';
import { publicCheckSchema } from '../../checks/responses.ts';
import {
  type Api,
  ConfigApplyError,
  defineKind,
  expectOk,
  type NameIndex,
  seg,
} from '../../config-doc/kind.ts';
import { firstExpectedCode } from '../../domain/assertions.ts';
import { DEFAULT_LOCATION, defaultQuorum } from '../../domain/states.ts';
import { type PolicyDoc, policyDocOf, policyDocSchema, readPolicyView, writePolicy } from './check-policy.ts';
import { sameSetting } from './destinations.ts';

declare module '../../config-doc/kind.ts' {
  interface DocLists {
    checks: true;
  }
}

/**
 * Checks (`/v1/checks`), identified by `<entity>:<name>` (entity `<blueprint>/<slug>`): the create
 * body of their type with `entity` for `entity_id`, the fields every check of the type reads back
 * (a push check's ping token is not one), the API's defaults applied, and `policy`, the check's
 * notification policy (lib/config-doc/check-policy.ts).
 */

type Variant = z.ZodObject;
const createVariants = createCheckBody.options as unknown as Variant[];
const readVariants = publicCheckSchema.options as unknown as Variant[];
const typeOf = (variant: Variant) => (variant.shape.check_type as z.ZodLiteral<CheckType>).value;

/** What a created check of `type` has for each field its body leaves out (definitionFromCreate). */
const defaultsOf = (type: CheckType): Record<string, unknown> => ({
  ...DEFAULTS,
  interval_seconds: Math.max(DEFAULTS.interval_seconds, minIntervalSeconds(type)),
  execution_mode: type === 'push' ? 'push' : 'pull',
  locations: [DEFAULT_LOCATION],
  quorum: null,
  slo_target: null,
  tls: null,
});

/** Fields the document leaves to the identity, the reference or the policy. */
const OWN_KEYS = new Set(['entity_id', 'name', 'check_type']);

/** Per type: the create body's fields a read shows too, in document order. */
const FIELDS = new Map<CheckType, string[]>(
  createVariants.map((variant) => {
    const type = typeOf(variant);
    const shown = readVariants.find((read) => typeOf(read) === type)?.shape ?? {};
    return [type, Object.keys(variant.shape).filter((key) => key in shown && !OWN_KEYS.has(key))];
  }),
);

/** One type's document: its create variant's fields with the defaults applied, `entity` and `policy`. */
function docVariant(variant: Variant) {
  const type = typeOf(variant);
  const defaults = defaultsOf(type);
  const shape: Record<string, z.ZodType> = {
    entity: z
      .string()
      .regex(/^[^/]+\/[^/]+$/, 'Name the entity as <blueprint>/<entity slug>.')
      .meta({ description: 'The check’s entity: <blueprint slug>/<entity slug>' }),
    name: checkNameSchema,
    check_type: variant.shape.check_type as z.ZodType,
  };
  for (const key of FIELDS.get(type) ?? []) {
    const field = variant.shape[key] as z.ZodType;
    shape[key] =
      field instanceof z.ZodOptional && key in defaults
        ? field.default(() => structuredClone(defaults[key]))
        : field;
  }
  shape.policy = policyDocSchema;
  return z.strictObject(shape);
}

const docVariants = createVariants.map(docVariant);

/**
 * With `expected_statuses` set, `expected_status` reads as its first code (DECISIONS.md "Checks
 * (wave 5)"), as the API answers it: a document that leaves it to its default says the same.
 */
function withFirstCode<D extends Record<string, unknown>>(doc: D): D {
  const statuses = doc.expected_statuses;
  return Array.isArray(statuses) && statuses.length > 0
    ? { ...doc, expected_status: firstExpectedCode(statuses) }
    : doc;
}

const checkDocSchema = z
  .discriminatedUnion('check_type', docVariants as unknown as [(typeof docVariants)[number]])
  .transform(withFirstCode);

/** A check's document form (typed loosely: its fields depend on its check_type). */
export type CheckDoc = Record<string, unknown> & {
  entity: string;
  name: string;
  check_type: CheckType;
  policy: PolicyDoc;
};

interface CheckView extends Record<string, unknown> {
  id: string;
  name: string;
  blueprint_slug: string;
  entity_slug: string;
  check_type: CheckType;
  locations: string[];
  quorum: number;
}

const hasSchedule = (doc: Record<string, unknown>) =>
  doc.check_type === 'push' &&
  typeof (doc.config as { schedule?: unknown } | undefined)?.schedule === 'object';

/** A read check in document form: the default quorum as null, a schedule's derived interval as the default. */
function docOf(check: CheckView, policy: PolicyDoc): CheckDoc {
  const doc: Record<string, unknown> = {
    entity: `${check.blueprint_slug}/${check.entity_slug}`,
    name: check.name,
    check_type: check.check_type,
  };
  for (const key of FIELDS.get(check.check_type) ?? []) doc[key] = check[key];
  if ('quorum' in doc && check.quorum === defaultQuorum(check.locations.length)) doc.quorum = null;
  if (hasSchedule(doc)) doc.interval_seconds = defaultsOf(check.check_type).interval_seconds;
  return { ...doc, policy } as CheckDoc;
}

/** The check's fields as a create or update body sends them (a scheduled push check's interval is derived). */
function sentFields(doc: CheckDoc, keys: readonly string[]): Record<string, unknown> {
  const sent = Object.fromEntries(keys.map((key) => [key, doc[key]]));
  if (hasSchedule(doc)) delete sent.interval_seconds;
  return sent;
}

const refused = (error: string) => new ConfigApplyError({ status: 400, body: { error } });

function entityId(names: NameIndex, doc: CheckDoc): string {
  const id = names.id('entities', doc.entity);
  if (id === undefined) throw refused(`no entity ${doc.entity} in the tenant`);
  return id;
}

const checkPath = (id: string) => `/v1/checks/${seg(id)}`;

export const checksKind = defineKind<CheckDoc>({
  key: 'checks',
  after: ['entities', 'channels'],
  noun: 'check',
  schema: checkDocSchema as unknown as z.ZodType<CheckDoc, unknown>,
  identity: (doc) => `${doc.entity}:${doc.name}`,
  references: (doc) => [
    { key: 'entities', identity: doc.entity },
    ...doc.policy.channels.flatMap((channel) =>
      'channel' in channel ? [{ key: 'channels' as const, identity: channel.channel }] : [],
    ),
  ],

  /**
   * Every check, then each one's policy. The unpaged list answers all checks at once: a page's
   * cursor comes in the Link header, which an in-process call does not answer.
   */
  async read(api: Api, names: NameIndex) {
    const checks = await expectOk<CheckView[]>(api, { method: 'GET', path: '/v1/checks' });
    const found = [];
    for (const check of checks) {
      // An outside check belongs to its integration, which makes and deletes it: not to the document.
      if (check.check_type === 'outside') continue;
      const policy = policyDocOf(await readPolicyView(api, check.id), names);
      found.push({ id: check.id, doc: docOf(check, policy) });
    }
    return found;
  },

  /** Creates the check, then its policy; a refused policy deletes the check again. */
  async create(api, doc, names) {
    const { entity: _entity, policy, ...fields } = doc;
    const body = { ...sentFields(doc, Object.keys(fields)), entity_id: entityId(names, doc) };
    const made = await expectOk<{ id: string }>(api, { method: 'POST', path: '/v1/checks', body });
    try {
      await writePolicy(api, made.id, undefined, policy, names, `check ${checksKind.identity(doc)}`);
    } catch (err) {
      await api({ method: 'DELETE', path: checkPath(made.id) });
      throw err;
    }
    return made.id;
  },

  async update(api, current, doc, names) {
    if (current.doc.check_type !== doc.check_type)
      throw refused(
        `check_type cannot change (${current.doc.check_type} to ${doc.check_type}): rename the check to replace it`,
      );
    const changed = (FIELDS.get(doc.check_type) ?? []).filter(
      (key) => !sameSetting(current.doc[key], doc[key]),
    );
    // A new target or method drops the stored header values (they follow their request), so the
    // document's go along; one left as `********` is then the API's 400, failing the object.
    const moved = changed.includes('target_url') || changed.includes('method');
    if (moved && !changed.includes('headers') && Object.keys(doc.headers ?? {}).length > 0)
      changed.push('headers');
    const body = sentFields(doc, changed);
    if (Object.keys(body).length > 0)
      await expectOk(api, { method: 'PUT', path: checkPath(current.id), body });
    if (sameSetting(current.doc.policy, doc.policy)) return;
    const view = await readPolicyView(api, current.id);
    await writePolicy(api, current.id, view, doc.policy, names, `check ${checksKind.identity(doc)}`);
  },

  async remove(api, current) {
    await expectOk(api, { method: 'DELETE', path: checkPath(current.id) });
  },
});
