import * as z from 'zod';
import type { Logger } from '../../platform/logger.ts';
import type { ProbeOutcome, ProbeScreenshot } from '../../probes/types.ts';
import { slotResultId } from '../results/result-recorder.ts';
import {
  ARTIFACT_NAME,
  type ArtifactRef,
  type ArtifactScope,
  type ArtifactStore,
  artifactKey,
  artifactPath,
  SCREENSHOT_TYPE,
  screenshotName,
} from './artifact-store.ts';

/** Screenshots one result keeps at most (a browser check has at most 30 steps; the failing one is last). */
const MAX_SCREENSHOTS = 31;

/** The names of a result's stored screenshots, as a message carries them (the cloud's `probed` job): never their bytes. */
export const artifactNamesSchema = z.array(z.string().regex(ARTIFACT_NAME)).max(MAX_SCREENSHOTS);

/** Whose result a slot's screenshots belong to: the result id the recorder gives the job's slot. */
export function slotScope(job: { tenant_id: string; check_id: string; slot_ms: number }): ArtifactScope {
  return {
    tenantId: job.tenant_id,
    checkId: job.check_id,
    resultId: slotResultId(job.check_id, job.slot_ms),
  };
}

/** What a result's details say of a stored screenshot, from its name (`step-<n>.jpg`: its step, one-based). */
export function screenshotRef(scope: ArtifactScope, name: string): ArtifactRef {
  return {
    step: Number(name.slice('step-'.length, -'.jpg'.length)),
    kind: 'screenshot',
    name,
    url: artifactPath(scope, name),
  };
}

/**
 * Stores a result's screenshots through the artifact port and answers what its details list
 * (`artifacts`). Names are fixed by the result and the step, so a redelivered job writes the same
 * keys, and the first write stands (`putIfAbsent`). A screenshot that cannot be stored is left out
 * of the list (logged): the result is recorded all the same.
 */
export async function storeScreenshots(
  deps: { artifacts: ArtifactStore; logger: Logger },
  scope: ArtifactScope,
  screenshots: readonly ProbeScreenshot[],
): Promise<ArtifactRef[]> {
  const kept = screenshots.slice(0, MAX_SCREENSHOTS);
  const stored = await Promise.all(
    kept.map(async (shot): Promise<ArtifactRef | undefined> => {
      const name = screenshotName(shot.step);
      try {
        await deps.artifacts.putIfAbsent(
          artifactKey(scope, name),
          Buffer.from(shot.jpeg, 'base64'),
          SCREENSHOT_TYPE,
        );
      } catch (error) {
        deps.logger.warn('a screenshot could not be stored', {
          check_id: scope.checkId,
          result_id: scope.resultId,
          name,
          error: String(error),
        });
        return undefined;
      }
      return screenshotRef(scope, name);
    }),
  );
  return stored.filter((ref) => ref !== undefined);
}

/**
 * The details a result stores for an outcome: its own, with `artifacts` when its screenshots were
 * stored (none without a store: the runtime keeps no evidence). Never the screenshots' bytes.
 */
export async function detailsWithEvidence(
  deps: { artifacts?: ArtifactStore | undefined; logger: Logger },
  scope: ArtifactScope,
  outcome: ProbeOutcome,
): Promise<Record<string, unknown> | undefined> {
  const details = outcome.details ? { ...outcome.details } : undefined;
  if (!deps.artifacts || !outcome.screenshots?.length) return details;
  const artifacts = await storeScreenshots(
    { artifacts: deps.artifacts, logger: deps.logger },
    scope,
    outcome.screenshots,
  );
  return artifacts.length > 0 ? { ...details, artifacts } : details;
}
