/**
 * lib/checks' face for the runtimes that probe (lib/local's scheduler and queues, lib/cloud's
 * generator and worker): the due-check generators, the cell runner that probes a cell's checks
 * together, the recorder of results and the located checks' decider (the agent routes report there). What a probe job is stays in probe-job.ts.
 * The check store is here, not only behind ./services.ts, so the worker reads checks without
 * loading the services' request validation (RE2 among it).
 */

/** A result's evidence (a browser check's screenshots and trace): the artifact store's adapters a runtime builds. */
export type { ArtifactStore } from './artifacts/artifact-store.ts';
export { createFileArtifactStore } from './artifacts/file-artifact-store.ts';
/** The artifacts bucket's store, and the retention tiers its objects are tagged with (infra/artifacts.ts's lifecycle rules). */
export {
  artifactBucketStore,
  LONGEST_RETENTION_DAYS,
  RETENTION_TAG,
  RETENTION_TIERS,
} from './artifacts/s3-artifact-store.ts';
export { createCheckStore } from './definitions/check-store.ts';
export { slotLocationResults } from './items/location-result-items.ts';
/** The cloud's browser function stores a slot's artifacts itself; the worker lists them by name. */
export { artifactNamesSchema, artifactRef, slotScope, storeArtifacts } from './results/evidence.ts';
export {
  createLocationDecider,
  type LocationDecider,
  type LocationProbeResult,
} from './results/location-decision.ts';
export { recordPushAlive, recordPushStart } from './results/push-start.ts';
export { createResultRecorder, type ResultRecorder } from './results/result-recorder.ts';
export { type DueCellSlot, generateCellShard } from './runner/cell-generator.ts';
export {
  type CellJob,
  type CellRunner,
  type CellRunnerDeps,
  cellJobId,
  cellJobSchema,
  createCellRunner,
} from './runner/cell-runner.ts';
export { type DueClaim, generateShard } from './services/generator.ts';
/** POST /v1/checks/{id}/run: a probe now (the app composes it; the check routes serve it). */
export { createRunNow, type RunNow } from './services/run-now.ts';
