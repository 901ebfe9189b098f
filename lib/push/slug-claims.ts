/**
 * lib/push's slug claims as check writes take them (lib/locations' composition): the writes that
 * move a push check's slug in the check's own transaction (slugs/slug-claims.ts).
 */
export { slugChangeOps } from './slugs/slug-claims.ts';
