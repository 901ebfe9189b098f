/** The input-schema pieces the catalog-ops manifest's tools share (catalog-ops.ts). */

export const noInput = { type: 'object', properties: {}, additionalProperties: false };

export const cursor = {
  type: 'string',
  maxLength: 4096,
  description: 'The next_cursor of the previous answer',
};
export const pageLimit = (byDefault: number, maximum: number) => ({
  type: 'integer',
  minimum: 1,
  maximum,
  default: byDefault,
  description: 'At most this many items (fewer when the answer would pass 50 KB)',
});

export const entityRef = {
  type: 'object',
  properties: {
    blueprint_slug: { type: 'string', description: 'The blueprint of the entity, e.g. service' },
    entity_slug: { type: 'string', description: 'The entity within the blueprint' },
  },
  required: ['blueprint_slug', 'entity_slug'],
  additionalProperties: false,
};
