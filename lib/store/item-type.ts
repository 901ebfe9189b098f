/**
 * A stored item type: its name (the `entity` attribute) and the version of its stored shape (the
 * `schema_version` attribute). Each feature defines its item types once, next to their keys and
 * records, and stamps every item it writes with them. The schema version lets a reader tell which
 * shape an item was written in, so a later change of shape can upgrade old items when it reads
 * them instead of rewriting the table. It is not the optimistic-lock `version` some items carry.
 */
export interface ItemType<E extends string = string> {
  readonly entity: E;
  readonly version: number;
}

/** The attributes that mark an item's type and shape version, spread into every item written. */
export interface ItemStamp<E extends string = string> {
  entity: E;
  schema_version: number;
}

/** Defines a stored item type; bump `version` whenever the stored shape of its items changes. */
export function itemType<E extends string>(entity: E, version = 1): ItemType<E> {
  if (!Number.isInteger(version) || version < 1)
    throw new RangeError('an item type version is a positive integer');
  return Object.freeze({ entity, version });
}

/** The `entity` and `schema_version` attributes of a type, for a put item or an upsert's `set`. */
export function stamp<E extends string>(type: ItemType<E>): ItemStamp<E> {
  return { entity: type.entity, schema_version: type.version };
}
