import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { LocationOutcome } from '../checks/locations';
import { UplotChart } from './uplot-chart';

/** What the chart needs of a result: when, and each location's part. */
export interface LocatedResult {
  checked_at: string;
  locations?: LocationOutcome[] | undefined;
}

/** One colour per location, in order (dark enough to read as lines on white). */
const COLOURS = [
  '#1d4ed8',
  '#b45309',
  '#047857',
  '#7c3aed',
  '#be123c',
  '#0e7490',
  '#4d7c0f',
  '#a21caf',
  '#374151',
  '#9a3412',
];

/** The locations of the results, `order` (the check's own) first, then any others by name. */
function seriesLocations(results: readonly LocatedResult[], order: readonly string[]): string[] {
  const seen = new Set(results.flatMap((r) => (r.locations ?? []).map((l) => l.location)));
  const others = [...seen].filter((l) => !order.includes(l)).sort();
  return [...order.filter((l) => seen.has(l)), ...others];
}

function median(values: number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** "Latency per location, last 12 results: default median 20 ms, office median 35 ms, eu-west-1 no report." */
function locationLatencyWords(results: readonly LocatedResult[], locations: readonly string[]): string {
  const parts = locations.map((name) => {
    const values = results.flatMap((r) => {
      const ms = r.locations?.find((l) => l.location === name)?.latency_ms;
      return typeof ms === 'number' ? [ms] : [];
    });
    const mid = median(values);
    return mid === undefined ? `${name} no report` : `${name} median ${Math.round(mid)} ms`;
  });
  const n = results.length;
  return `Latency per location, last ${n} result${n === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/**
 * One line per location over a located check's recent results (oldest left): each location's own
 * latency in each slot (a failed probe's too), a gap where it did not report.
 */
export function LocationLatencyChart({
  results,
  order,
}: {
  /** Newest first, as GET /v1/checks/{id}/results answers. */
  results: readonly LocatedResult[];
  order: readonly string[];
}) {
  const oldestFirst = useMemo(
    () => results.filter((r) => r.locations && r.locations.length > 0).reverse(),
    [results],
  );
  const locations = useMemo(() => seriesLocations(oldestFirst, order), [oldestFirst, order]);
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(
    () => ({
      scales: { x: { time: true } },
      axes: [{}, { label: 'ms', size: 56 }],
      series: [
        {},
        ...locations.map((name, i) => ({
          label: name,
          stroke: COLOURS[i % COLOURS.length],
          width: 2,
          spanGaps: false,
          points: { show: true, size: 5 },
        })),
      ],
    }),
    [locations],
  );
  const data = useMemo<uPlot.AlignedData>(
    () => [
      oldestFirst.map((r) => Date.parse(r.checked_at) / 1000),
      ...locations.map((name) =>
        oldestFirst.map((r) => r.locations?.find((l) => l.location === name)?.latency_ms ?? null),
      ),
    ],
    [oldestFirst, locations],
  );
  return (
    <UplotChart
      options={options}
      data={data}
      height={180}
      label={locationLatencyWords(oldestFirst, locations)}
    />
  );
}
