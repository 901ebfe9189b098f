import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Schemas } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { checkQueries, readArtifact } from './queries';

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
  step,
}: {
  checkId: string;
  resultId: string;
  artifact: Artifact;
  step: number;
}) {
  const image = useQuery(checkQueries.artifact(checkId, resultId, artifact.name));
  if (image.isPending) return <span className="muted">Loading the screenshot…</span>;
  if (image.error) return <span className="muted">The screenshot could not be read.</span>;
  return <StepScreenshot src={image.data} step={step} />;
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
    return artifact ? (
      <StoredScreenshot checkId={checkId} resultId={result.id} artifact={artifact} step={step} />
    ) : null;
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

/**
 * A stored result's Playwright trace: a button that reads it with the console's key (a plain link
 * cannot carry it) and saves it as trace.zip, and how to open it. Nothing without a trace; the
 * reason when the run's trace was too large to keep.
 */
export function StoredTrace({
  checkId,
  result,
}: {
  checkId: string;
  result: Pick<Schemas['Result'], 'id' | 'details'>;
}) {
  const trace = result.details?.artifacts?.find((a) => a.kind === 'trace');
  const download = useMutation({
    mutationFn: async (name: string) => {
      const url = URL.createObjectURL(await readArtifact(checkId, result.id, name));
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      URL.revokeObjectURL(url);
    },
  });
  const leftOut = result.details?.trace_left_out;
  if (!trace) return leftOut ? <p className="muted">No trace: {leftOut}.</p> : null;
  return (
    <div className="trace-download">
      <button type="button" onClick={() => download.mutate(trace.name)} disabled={download.isPending}>
        {download.isPending ? 'Downloading…' : 'Download trace'}
      </button>{' '}
      <span className="muted">
        Open it with <code>npx playwright show-trace trace.zip</code> or at{' '}
        <a href="https://trace.playwright.dev" target="_blank" rel="noreferrer">
          trace.playwright.dev
        </a>{' '}
        (the file stays in your browser there).
      </span>
      <ErrorNote error={download.error} title="The trace could not be read" />
    </div>
  );
}
