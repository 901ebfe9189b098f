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

/** explain_alerting: exactly one of check_id and entity_id, and the state to simulate. */
export const explainAlertingInput = {
  type: 'object',
  properties: {
    check_id: {
      type: 'string',
      description: 'The check whose failure (or recovery) moves its entity (chk_…); or entity_id',
    },
    entity_id: {
      type: 'string',
      description: 'The entity (ent_…): each of its enabled checks is simulated; or check_id',
    },
    to_state: {
      type: 'string',
      enum: ['up', 'down', 'degraded'],
      description: 'The state the entity would change to now',
    },
  },
  required: ['to_state'],
  additionalProperties: false,
};

/** get_check_results: the check, the window and a page of its results. */
export const checkResultsInput = {
  type: 'object',
  properties: {
    check_id: { type: 'string', description: 'The check (chk_…)' },
    hours: { type: 'integer', minimum: 1, maximum: 168, default: 1, description: 'How far back to look' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: 500,
      default: 50,
      description: 'At most this many results (fewer when the answer would pass 50 KB)',
    },
    cursor,
  },
  required: ['check_id'],
  additionalProperties: false,
};
