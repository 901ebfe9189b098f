import { useMemo } from 'react';
import uPlot from 'uplot';
import { UplotChart } from './uplot-chart';

/** One bucket of GET /v1/checks/{id}/sparkline. */
export type SparkBucket = {
  start: string;
  total: number;
  failures: number;
  p50_latency_ms: number | null;
  max_latency_ms: number | null;
};

/** The words a chart's summary is made of: "24 h: 480 results, 3 failures, p50 42 ms" (`range` in words). */
export function summarize(buckets: SparkBucket[], range: string): string {
  const total = buckets.reduce((n, b) => n + b.total, 0);
  const failures = buckets.reduce((n, b) => n + b.failures, 0);
  const p50s = buckets
    .filter((b) => b.p50_latency_ms !== null && b.total > 0)
    .map((b) => b.p50_latency_ms as number)
    .sort((a, b) => a - b);
  const mid = p50s[Math.floor(p50s.length / 2)];
  const p50 = mid === undefined ? 'no latency yet' : `p50 ${Math.round(mid)} ms`;
  return `${range}: ${total} result${total === 1 ? '' : 's'}, ${failures} failure${failures === 1 ? '' : 's'}, ${p50}`;
}

function seconds(buckets: SparkBucket[]): number[] {
  return buckets.map((b) => Date.parse(b.start) / 1000);
}

const UP = '#166534';
const DOWN = '#991b1b';
const ACCENT = '#1d4ed8';

// Bars, not a line: one bucket with results among empty ones (a new check) must still show.
const bars = uPlot.paths.bars?.({ size: [0.85, 48], gap: 1 });

/** The window the buckets cover, so a few results sit at their time instead of filling the chart. */
function windowRange(buckets: SparkBucket[]): uPlot.Range.MinMax {
  const xs = seconds(buckets);
  const first = xs[0] ?? 0;
  const step = xs.length > 1 ? (xs[1] ?? first) - first : 1800;
  return [first, (xs[xs.length - 1] ?? first) + step];
}

function sparkOptions(buckets: SparkBucket[]): Omit<uPlot.Options, 'width' | 'height'> {
  const range = windowRange(buckets);
  return {
    legend: { show: false },
    cursor: { show: false },
    axes: [{ show: false }, { show: false }],
    scales: { x: { time: true, range: () => range }, y: { range: [0, 100] } },
    // Each bucket with results is a full-height red bar with its share of successes drawn green over it.
    series: [
      {},
      { label: 'Failed %', fill: DOWN, stroke: DOWN, width: 0, paths: bars, points: { show: false } },
      { label: 'Success %', fill: UP, stroke: UP, width: 0, paths: bars, points: { show: false } },
    ],
  };
}

/** Availability per bucket: green up to the share of successful results, red above; gaps where there were none. */
export function Sparkline({ buckets, label }: { buckets: SparkBucket[]; label: string }) {
  const options = useMemo(() => sparkOptions(buckets), [buckets]);
  const data = useMemo<uPlot.AlignedData>(
    () => [
      seconds(buckets),
      buckets.map((b) => (b.total > 0 ? 100 : null)),
      buckets.map((b) => (b.total > 0 ? (100 * (b.total - b.failures)) / b.total : null)),
    ],
    [buckets],
  );
  return (
    <UplotChart
      options={options}
      data={data}
      height={56}
      label={`Availability, ${summarize(buckets, label)}`}
    />
  );
}

function latencyOptions(buckets: SparkBucket[]): Omit<uPlot.Options, 'width' | 'height'> {
  const range = windowRange(buckets);
  return {
    scales: { x: { time: true, range: () => range } },
    axes: [{}, { label: 'ms', size: 56 }],
    series: [
      {},
      // spanGaps false: a bucket without results breaks the line (a gap, not a slope across it).
      { label: 'p50 ms', stroke: ACCENT, width: 2, spanGaps: false, points: { show: true, size: 4 } },
      {
        label: 'max ms',
        stroke: DOWN,
        width: 1,
        dash: [4, 4],
        spanGaps: false,
        points: { show: true, size: 3 },
      },
    ],
  };
}

/** Latency per bucket: the median and the maximum. */
export function LatencyChart({ buckets, label }: { buckets: SparkBucket[]; label: string }) {
  const options = useMemo(() => latencyOptions(buckets), [buckets]);
  const data = useMemo<uPlot.AlignedData>(
    () => [seconds(buckets), buckets.map((b) => b.p50_latency_ms), buckets.map((b) => b.max_latency_ms)],
    [buckets],
  );
  return (
    <UplotChart options={options} data={data} height={160} label={`Latency, ${summarize(buckets, label)}`} />
  );
}
