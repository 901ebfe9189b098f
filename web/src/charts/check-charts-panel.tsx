import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { checkQueries } from '../checks/queries';
import { ErrorNote, Loading } from '../ui/feedback';
import { LatencyChart, Sparkline, summarize } from './check-charts';

/**
 * A check's availability and latency charts with a range picker. Each range's buckets span a whole
 * number of 5-minute rollup buckets, so the server answers from its rollups (never raw results),
 * and are sized to the range (about 100 to 180 bars) so a range reads as a chart, not one bar at
 * the edge; a bucket without results is a gap.
 */

const CHART_RANGES = [
  { key: '1h', label: '1 h', hours: 1, buckets: 12 },
  { key: '24h', label: '24 h', hours: 24, buckets: 96 },
  { key: '7d', label: '7 days', hours: 168, buckets: 168 },
  { key: '30d', label: '30 days', hours: 720, buckets: 180 },
] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

export function CheckCharts({ checkId, initial = '24h' }: { checkId: string; initial?: ChartRange['key'] }) {
  const [key, setKey] = useState<ChartRange['key']>(initial);
  const range = CHART_RANGES.find((r) => r.key === key) ?? CHART_RANGES[1];
  const spark = useQuery(checkQueries.sparkline(checkId, range.hours, range.buckets));
  return (
    <div className="check-charts-panel">
      <fieldset className="range-picker">
        <legend className="visually-hidden">Chart range</legend>
        {CHART_RANGES.map((r) => (
          <button key={r.key} type="button" aria-pressed={r.key === key} onClick={() => setKey(r.key)}>
            {r.label}
          </button>
        ))}
      </fieldset>
      <ErrorNote error={spark.error} title="The charts could not be loaded." />
      {spark.data ? (
        <div className="check-charts">
          <figure>
            <figcaption>
              Availability, last {range.label} ({summarize(spark.data.buckets, range.label)})
            </figcaption>
            <Sparkline buckets={spark.data.buckets} label={range.label} />
          </figure>
          <figure>
            <figcaption>Latency, last {range.label}</figcaption>
            <LatencyChart buckets={spark.data.buckets} label={range.label} />
          </figure>
        </div>
      ) : spark.isPending ? (
        <Loading what="charts" />
      ) : null}
    </div>
  );
}
