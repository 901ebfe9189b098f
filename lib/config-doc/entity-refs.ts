import * as z from 'zod';
import { SLUG } from '../domain/formats.ts';
import { ConfigApplyError, type DocKey, type NameIndex } from './kind.ts';

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
