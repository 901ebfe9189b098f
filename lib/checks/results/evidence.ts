import * as z from 'zod';
import type { Logger } from '../../platform/logger.ts';
import type { ProbeOutcome } from '../../probes/types.ts';
import {
  ARTIFACT_NAME,
  type ArtifactRef,
  type ArtifactScope,
  type ArtifactStore,
  artifactKey,
  artifactPath,
  SCREENSHOT_TYPE,
  screenshotName,
  TRACE_NAME,
  TRACE_TYPE,
} from '../artifacts/artifact-store.ts';
import { slotResultId } from './result-recorder.ts';

/** Screenshots one result keeps at most (a browser check has at most 30 steps; the failing one is last). */
const MAX_SCREENSHOTS = 31;

/** The names of a result's stored artifacts (screenshots, a trace), as a message carries them (the cloud's `probed` job): never their bytes. */
export const artifactNamesSchema = z.array(z.string().regex(ARTIFACT_NAME)).max(MAX_SCREENSHOTS + 1);

/** Whose result a slot's artifacts belong to: the result id the recorder gives the job's slot. */
export function slotScope(job: { tenant_id: string; check_id: string; slot_ms: number }): ArtifactScope {
  return {
    tenantId: job.tenant_id,
    checkId: job.check_id,
    resultId: slotResultId(job.check_id, job.slot_ms),
  };
}

/** What a result's details say of a stored artifact, from its name (`step-<n>.jpg`: its step, one-based; `trace.zip`). */
export function artifactRef(scope: ArtifactScope, name: string): ArtifactRef {
  const url = artifactPath(scope, name);
  if (name === TRACE_NAME) return { kind: 'trace', name, url };
  return { step: Number(name.slice('step-'.length, -'.jpg'.length)), kind: 'screenshot', name, url };
}

/**
 * Stores a result's screenshots and trace through the artifact port and answers what its details
 * list (`artifacts`). Names are fixed by the result and the step, so a redelivered job writes the
 * same keys, and the first write stands (`putIfAbsent`). An artifact that cannot be stored is left
 * out of the list (logged): the result is recorded all the same.
 */
export async function storeArtifacts(
  deps: { artifacts: ArtifactStore; logger: Logger },
  scope: ArtifactScope,
  outcome: Pick<ProbeOutcome, 'screenshots' | 'trace'>,
  /** The tenant's retention, when the store expires objects by it (the cloud's bucket). */
  retentionDays?: number,
): Promise<ArtifactRef[]> {
  const files = (outcome.screenshots ?? [])
    .slice(0, MAX_SCREENSHOTS)
    .map((shot): [string, string, string] => [screenshotName(shot.step), shot.jpeg, SCREENSHOT_TYPE]);
  if (outcome.trace) files.push([TRACE_NAME, outcome.trace, TRACE_TYPE]);
  const stored = await Promise.all(
    files.map(async ([name, base64, type]): Promise<ArtifactRef | undefined> => {
      try {
        await deps.artifacts.putIfAbsent(
          artifactKey(scope, name),
          Buffer.from(base64, 'base64'),
          type,
          retentionDays,
        );
      } catch (error) {
        deps.logger.warn('an artifact could not be stored', {
          check_id: scope.checkId,
          result_id: scope.resultId,
          name,
          error: String(error),
        });
        return undefined;
      }
      return artifactRef(scope, name);
    }),
  );
  return stored.filter((ref) => ref !== undefined);
}

/**
 * The details a result stores for an outcome: its own, with `artifacts` when its screenshots or
 * trace were stored (none without a store: the runtime keeps no evidence), and `trace_left_out`
 * when its trace was too large to keep. Never their bytes.
 */
export async function detailsWithEvidence(
  deps: { artifacts?: ArtifactStore | undefined; logger: Logger },
  scope: ArtifactScope,
  outcome: ProbeOutcome,
): Promise<Record<string, unknown> | undefined> {
  const { trace_left_out } = outcome;
  const details = trace_left_out
    ? { ...outcome.details, trace_left_out }
    : outcome.details && { ...outcome.details };
  if (!deps.artifacts || (!outcome.screenshots?.length && !outcome.trace)) return details;
  const artifacts = await storeArtifacts({ artifacts: deps.artifacts, logger: deps.logger }, scope, outcome);
  return artifacts.length > 0 ? { ...details, artifacts } : details;
}
