import type { ArtifactStore } from '../checks/probing.ts';
import { purgeCheckArtifacts, purgeEntityChecks } from '../checks/results.ts';
import { defineFeature } from '../platform/feature.ts';
import { purgeOf } from '../purge/purge-steps.ts';
import { purgePingTokenLookups } from '../push/token-purge.ts';

/*
 * The faces of the features whose folders' faces are at their size limit (lib/checks, lib/push:
 * test/architecture/front-doors.test.ts), over what those folders' faces export. Every other
 * feature's face is lib/<feature>/feature.ts.
 */

/** The checks' face: a deleted entity's checks go with it, and a deleted check's screenshots with its partition. */
export const checksFeature = defineFeature({
  name: 'checks',
  jobs: [],
  purge: purgeOf<{ artifacts?: ArtifactStore | undefined }>(({ artifacts }) => ({
    entity: [purgeEntityChecks],
    // lib/purge deletes the partition itself; its results' screenshots are in the artifact store.
    ...(artifacts ? { partition: [purgeCheckArtifacts(artifacts)] } : {}),
  })),
});

/** Push checks' face: a deleted check's ping token lookups (outside its partition) go with it. */
export const pushFeature = defineFeature({
  name: 'push',
  jobs: [],
  purge: purgeOf(() => ({ partition: [purgePingTokenLookups] })),
});
