/**
 * What the console has learnt about entities by id (transitions carry only the entity id): names
 * from the status stream's events and the status board's pages, and the address of the entity
 * page where known. Nothing here is fetched: a miss shows the id.
 */

export interface KnownEntity {
  name: string;
  blueprint_slug?: string;
  slug?: string;
}

const known = new Map<string, KnownEntity>();
const MAX = 5000;

/** Records (or completes) what is known about entity `id`. */
export function rememberEntity(id: string, entity: KnownEntity): void {
  const before = known.get(id);
  known.delete(id);
  known.set(id, { ...before, ...entity });
  if (known.size > MAX) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}

/** What is known about entity `id`, if anything. */
export function knownEntity(id: string): KnownEntity | undefined {
  return known.get(id);
}
