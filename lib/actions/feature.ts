import { defineFeature } from '../platform/feature.ts';
import { purgeOf } from '../purge/purge-steps.ts';
import { purgeActionExecutions } from './stores.ts';

/** Actions' face in the feature list: a deleted action's executions go with it (each with its log's partition). */
export const actionsFeature = defineFeature({
  name: 'actions',
  jobs: [],
  purge: purgeOf(() => ({ action: [purgeActionExecutions] })),
});
