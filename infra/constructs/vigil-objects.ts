import { describeFailure, type VigilAnswer, VigilApiError, type VigilCall } from './vigil-client.ts';

/**
 * The three kinds of object the constructs declare, each as the custom resource provider creates,
 * updates and deletes it through Vigil's API. A construct's properties are the object's document
 * form (lib/config-doc, docs/config.md): the API's create body with references by name, so a
 * check names its entity `service/api`, not an id.
 *
 * These call the object's own routes directly rather than POST /v1/config/apply: a delete has no
 * one-object form in a configuration document (only a prune of everything the document lacks),
 * and the physical resource id CloudFormation keeps is then the object's own id, which update and
 * delete address without a lookup.
 */

export type ObjectKind = 'entity' | 'check' | 'channel';
export const OBJECT_KINDS: readonly ObjectKind[] = ['entity', 'check', 'channel'];

type Doc = Record<string, unknown>;

export interface VigilObjectOps {
  /** The object's identity in a configuration document; a change of it replaces the object. */
  identity(doc: Doc): string;
  /** Creates the object; answers the physical resource id CloudFormation keeps for it. */
  create(call: VigilCall, doc: Doc): Promise<string>;
  /** Brings the object from `old` to `doc`, which have the same identity. */
  update(call: VigilCall, id: string, doc: Doc, old: Doc): Promise<void>;
  /** Deletes the object; one already gone (404) counts as deleted. */
  remove(call: VigilCall, id: string): Promise<void>;
}

async function expect2xx(
  call: VigilCall,
  method: string,
  path: string,
  body?: unknown,
): Promise<VigilAnswer> {
  const answer = await call(method, path, body);
  if (answer.status >= 300) throw new VigilApiError(describeFailure(method, path, answer), answer.status);
  return answer;
}

async function deleteIfThere(call: VigilCall, path: string): Promise<void> {
  const answer = await call('DELETE', path);
  if (answer.status >= 300 && answer.status !== 404)
    throw new VigilApiError(describeFailure('DELETE', path, answer), answer.status);
}

const seg = (value: string) => encodeURIComponent(value);
const text = (doc: Doc, key: string) => {
  const value = doc[key];
  if (typeof value !== 'string' || value === '') throw new Error(`the document has no ${key}`);
  return value;
};

/** `<blueprint>/<slug>` split in two; the slug never holds a slash. */
function entityRef(ref: string): { blueprint: string; slug: string } {
  const at = ref.lastIndexOf('/');
  if (at <= 0 || at === ref.length - 1)
    throw new Error(`"${ref}" is not an entity reference <blueprint>/<slug>`);
  return { blueprint: ref.slice(0, at), slug: ref.slice(at + 1) };
}

const entityPath = (ref: string) => {
  const { blueprint, slug } = entityRef(ref);
  return `/v1/blueprints/${seg(blueprint)}/entities/${seg(slug)}`;
};

/** Keys `old` had that `doc` no longer has, for a JSON merge patch (null removes). */
const removedKeys = (old: unknown, doc: unknown): Record<string, null> =>
  Object.fromEntries(
    Object.keys((old ?? {}) as Doc)
      .filter((key) => !(key in ((doc ?? {}) as Doc)))
      .map((key) => [key, null]),
  );

/**
 * Entities are addressed by their identity (`<blueprint>/<slug>`, the API's own path), which is
 * also their physical id. PUT is a JSON merge patch, so a field the document dropped is sent as null.
 */
const entity: VigilObjectOps = {
  identity: (doc) => `${text(doc, 'blueprint')}/${text(doc, 'slug')}`,
  async create(call, doc) {
    const { blueprint, ...body } = doc;
    await expect2xx(call, 'POST', `/v1/blueprints/${seg(String(blueprint))}/entities`, body);
    return entity.identity(doc);
  },
  async update(call, id, doc, old) {
    const fields = { ...removedKeys(old.fields, doc.fields), ...((doc.fields ?? {}) as Doc) };
    const body: Doc = { name: doc.name, fields, state_rule: doc.state_rule ?? null };
    await expect2xx(call, 'PUT', entityPath(id), body);
  },
  async remove(call, id) {
    // A failed create leaves CloudFormation a physical id that is no reference: nothing to delete.
    if (!/^[^/]+\/[^/]+$/.test(id)) return;
    await deleteIfThere(call, entityPath(id));
  },
};

/** The check fields that can be set back to "none" (null) when the document drops them. */
const NULLABLE_CHECK_FIELDS = ['name', 'target_url', 'body', 'tls', 'slo_target', 'degraded_latency_ms'];

/**
 * Checks: the document names the entity (`entity: service/api`); the id goes to the API. The type
 * never changes in place (PUT takes no check_type: the API refuses it); a dropped field that can be
 * null becomes null, and any other keeps its value in Vigil (docs/cdk-constructs.md).
 */
const check: VigilObjectOps = {
  identity: (doc) => `${text(doc, 'entity')}:${typeof doc.name === 'string' ? doc.name : ''}`,
  async create(call, doc) {
    const { entity: ref, ...body } = doc;
    const found = await expect2xx(call, 'GET', entityPath(String(ref)));
    const entityId = (found.body as { id?: unknown }).id;
    const made = await expect2xx(call, 'POST', '/v1/checks', { ...body, entity_id: entityId });
    return String((made.body as { id: unknown }).id);
  },
  async update(call, id, doc, old) {
    const { entity: _entity, check_type: _type, ...body } = doc;
    const dropped = NULLABLE_CHECK_FIELDS.filter((key) => key in old && !(key in doc));
    await expect2xx(call, 'PUT', `/v1/checks/${seg(id)}`, {
      ...Object.fromEntries(dropped.map((key) => [key, null])),
      ...body,
    });
  },
  async remove(call, id) {
    if (!id.startsWith('chk_')) return;
    await deleteIfThere(call, `/v1/checks/${seg(id)}`);
  },
};

/** Shared (tenant) channels, named by `name`; an update gives the whole config again, secrets too. */
const channel: VigilObjectOps = {
  identity: (doc) => text(doc, 'name'),
  async create(call, doc) {
    const made = await expect2xx(call, 'POST', '/v1/notify/channels', doc);
    return String((made.body as { id: unknown }).id);
  },
  async update(call, id, doc, old) {
    // A template the document dropped is removed (null); absent would keep the stored one.
    const template = 'template' in old && !('template' in doc) ? { template: null } : {};
    await expect2xx(call, 'PUT', `/v1/notify/channels/${seg(id)}`, { ...template, ...doc });
  },
  async remove(call, id) {
    if (!id.startsWith('chn_')) return;
    await deleteIfThere(call, `/v1/notify/channels/${seg(id)}`);
  },
};

export const OBJECT_OPS: Record<ObjectKind, VigilObjectOps> = { entity, check, channel };
