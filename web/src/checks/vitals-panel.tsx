import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../api/client';
import { hasVitals, vitalsWords, WebVitalsChart } from '../charts/web-vitals';
import { Time } from '../ui/bits';
import { ErrorNote, Loading } from '../ui/feedback';
import { Section } from '../ui/page';
import { checkTypeForm } from './check-types/registry';
import { checkQueries } from './queries';

/** Results the chart reads (the newest of GET /v1/checks/{id}/results, as the per-location chart). */
const VITALS_CHART_RESULTS = 50;

/**
 * A browser check's Web Vitals on its page (docs/scripted-checks.md "Results"): the latest run's
 * LCP, TTFB and CLS in words and a chart of them over the recent results. Nothing for a check
 * whose type reports no vitals.
 */
export function VitalsPanel({ check }: { check: Schemas['Check'] }) {
  if (!checkTypeForm(check.check_type).vitals) return null;
  return (
    <Section title="Web Vitals">
      <VitalsChart checkId={check.id} />
    </Section>
  );
}

function VitalsChart({ checkId }: { checkId: string }) {
  const results = useQuery(checkQueries.latest(checkId, VITALS_CHART_RESULTS));
  if (results.isPending) return <Loading what="results" />;
  if (results.error) return <ErrorNote error={results.error} title="The results could not be read." />;
  const measured = results.data.results.filter(hasVitals);
  const [latest] = measured;
  if (!latest) return <p className="muted">No result has Web Vitals yet.</p>;
  return (
    <figure className="web-vitals">
      <figcaption>
        Largest Contentful Paint and time to first byte (ms, left), Cumulative Layout Shift (right), last{' '}
        {measured.length} results with vitals
      </figcaption>
      <p className="vitals-latest">
        Latest (<Time iso={latest.checked_at} />
        ): {vitalsWords(latest.details?.vitals ?? {})}
      </p>
      <WebVitalsChart results={measured} />
    </figure>
  );
}
