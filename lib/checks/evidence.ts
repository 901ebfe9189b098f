/**
 * lib/checks' face for a result's stored evidence (issue 57: a failing browser check's
 * screenshots): the artifact store's two adapters a runtime builds (local files, S3), the route
 * that reads one, and the purge step of a deleted check. Keys and names stay in ./artifacts.
 */

export { purgeCheckArtifacts } from './artifacts/artifact-purge.ts';
export { artifactRoutes } from './artifacts/artifact-routes.ts';
export type { ArtifactStore } from './artifacts/artifact-store.ts';
export { createFileArtifactStore } from './artifacts/file-artifact-store.ts';
export { createS3ArtifactStore } from './artifacts/s3-artifact-store.ts';
