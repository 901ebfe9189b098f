import * as z from 'zod';
import { SLUG } from '../domain/formats.ts';
import { type Api, ConfigApplyError, type DocKey, expectOk, type NameIndex } from './kind.ts';

/** The slug pattern without its anchors, so two slugs make one entity reference. */
const SLUG_PART = SLUG.source.slice(1, -1);

/** An entity named in a document (DECISIONS "Configuration as code"): `<blueprint slug>/<entity slug>`. */
export const entityRefSchema = z
  .string()
  .regex(
    new RegExp(`^${SLUG_PART}/${SLUG_PART}$`),
    'Name an entity as <blueprint slug>/<entity slug>, such as service/api.',
  )
  .meta({ description: 'An entity: <blueprint slug>/<entity slug>' });

/** The reference of an entity as the API names it (a relation's end, a window's entity). */
export const entityRef = (entity: { blueprint_slug: string; slug: string }) =>
  `${entity.blueprint_slug}/${entity.slug}`;

/**
 * A refusal of the kind itself, before any call: shaped as the API's 400 so the apply's
 * per-object result reads like every other failure.
 */
export function refused(message: string): ConfigApplyError {
  return new ConfigApplyError({ status: 400, body: { error: message, code: 'VALIDATION_ERROR' } }, message);
}

/**
 * The id of the object a document refers to. The engine checks references before it applies and
 * fails objects whose references failed, so a miss here means the object went away meanwhile.
 */
export function resolveId(names: NameIndex, key: DocKey, identity: string, path: string): string {
  const id = names.id(key, identity);
  if (id === undefined) throw refused(`${path} refers to ${identity}, which does not exist`);
  return id;
}

/**
 * A person named in a document (schedules' and teams' members): the member's e-mail address, which
 * is the same in every account they belong to, where a user id is not; a former member (no address
 * any more) by the user id the API still holds.
 */
export const memberRefSchema = z
  .string()
  .trim()
  .max(254)
  .regex(/^(usr_[0-9A-Za-z]{1,60}|[^@\s]+@[^@\s]+)$/, 'Name a member by e-mail address.')
  .transform((ref) => (ref.includes('@') ? ref.toLowerCase() : ref))
  .meta({ description: 'A member of the account, by e-mail address' });

/** A person as the API names them, as the document does. */
export const memberRef = (person: { id: string; email: string | null }) => person.email ?? person.id;

/**
 * The user ids of members named by the document, from the account's members (GET
 * /v1/settings/users); an address no member has fails the object with the path named.
 */
export async function memberResolver(api: Api) {
  const list = await expectOk<{ id: string; email: string; status: string }[]>(api, {
    method: 'GET',
    path: '/v1/settings/users',
  });
  const byEmail = new Map(
    list.filter((u) => u.status === 'active').map((u) => [u.email.toLowerCase(), u.id]),
  );
  const id = (ref: string, path: string) => {
    if (!ref.includes('@')) return ref;
    const found = byEmail.get(ref);
    if (found === undefined) throw refused(`${path}: no member of this account has the address ${ref}`);
    return found;
  };
  return {
    id,
    ids: (refs: string[], path: string) => refs.map((ref, i) => id(ref, `${path}[${i}]`)),
    layer: <L extends { members: string[] }>(layer: L, path: string) => ({
      ...layer,
      members: layer.members.map((ref, i) => id(ref, `${path}.members[${i}]`)),
    }),
  };
}
