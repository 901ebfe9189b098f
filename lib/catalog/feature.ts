import { defineFeature } from '../platform/feature.ts';
import { purgeOf } from '../purge/purge-steps.ts';
import { purgeEntityRelations } from './relations.ts';

/** The catalog's face in the feature list: a deleted entity's relations go with it. */
export const catalogFeature = defineFeature({
  name: 'catalog',
  jobs: [],
  purge: purgeOf(() => ({ entity: [purgeEntityRelations] })),
});
