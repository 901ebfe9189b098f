import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Schemas } from '../api/client';
import { checkQueries } from './queries';

type Artifact = Schemas['ResultArtifact'];

/** One screenshot of a step: the image, labelled by its step. */
function StepScreenshot({ src, step }: { src: string; step: number }) {
  return <img className="step-screenshot" src={src} alt={`Screenshot at step ${step}`} />;
}

/** A stored screenshot (GET …/artifacts/{name}), read with the console's credential. */
function StoredScreenshot({
  checkId,
  resultId,
  artifact,
}: {
  checkId: string;
  resultId: string;
  artifact: Artifact;
}) {
  const image = useQuery(checkQueries.artifact(checkId, resultId, artifact.name));
  if (image.isPending) return <span className="muted">Loading the screenshot…</span>;
  if (image.error) return <span className="muted">The screenshot could not be read.</span>;
  return <StepScreenshot src={image.data} step={artifact.step} />;
}

/** A stored result's screenshots by step (one-based), for StepResults: none when it lists no artifacts. */
export function storedScreenshots(
  checkId: string,
  result: Pick<Schemas['Result'], 'id' | 'details'>,
): ((step: number) => ReactNode) | undefined {
  const artifacts = result.details?.artifacts;
  if (!artifacts?.length) return undefined;
  return (step) => {
    const artifact = artifacts.find((a) => a.step === step && a.kind === 'screenshot');
    return artifact ? <StoredScreenshot checkId={checkId} resultId={result.id} artifact={artifact} /> : null;
  };
}

/** A draft's screenshots by step, from its answer's inline JPEGs (nothing stored). */
export function draftScreenshots(
  shots: Schemas['DraftRun']['screenshots'],
): ((step: number) => ReactNode) | undefined {
  if (!shots?.length) return undefined;
  return (step) => {
    const shot = shots.find((s) => s.step === step);
    return shot ? <StepScreenshot src={`data:image/jpeg;base64,${shot.jpeg}`} step={step} /> : null;
  };
}
