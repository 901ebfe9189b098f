import { useMemo } from 'react';
import type uPlot from 'uplot';
import { UplotChart } from './uplot-chart';

/** A browser run's Web Vitals (`details.vitals`): each absent when the page did not report it. */
interface Vitals {
  lcp_ms?: number;
  cls?: number;
  ttfb_ms?: number;
}

/** What the chart needs of a result: when, and its vitals. */
interface VitalsResult {
  checked_at: string;
  details?: { vitals?: Vitals } | undefined;
}

/** Whether a result carries at least one vital. */
export function hasVitals(result: VitalsResult): boolean {
  const v = result.details?.vitals;
  return v !== undefined && [v.lcp_ms, v.cls, v.ttfb_ms].some((n) => typeof n === 'number');
}

const ms = (n: number | undefined) => (n === undefined ? 'not reported' : `${Math.round(n)} ms`);
const shift = (n: number | undefined) => (n === undefined ? 'not reported' : `${Number(n.toFixed(3))}`);

/** "LCP 1200 ms, TTFB 80 ms, CLS 0.05": one result's vitals in words. */
export function vitalsWords(v: Vitals): string {
  return `LCP ${ms(v.lcp_ms)}, TTFB ${ms(v.ttfb_ms)}, CLS ${shift(v.cls)}`;
}

const LCP = '#1d4ed8';
const TTFB = '#b45309';
const CLS = '#047857';

/** LCP and TTFB on a left axis in ms, CLS (a unitless score) on a right axis of its own, from 0. */
const OPTIONS: Omit<uPlot.Options, 'width' | 'height'> = {
  scales: {
    x: { time: true },
    ms: { range: (_u, _min, max) => [0, Math.max(100, max ?? 0) * 1.1] },
    cls: { range: (_u, _min, max) => [0, Math.max(0.25, max ?? 0) * 1.1] },
  },
  axes: [
    {},
    { scale: 'ms', label: 'ms', size: 56 },
    { scale: 'cls', side: 1, label: 'CLS', size: 56, grid: { show: false } },
  ],
  series: [
    {},
    { label: 'LCP ms', scale: 'ms', stroke: LCP, width: 2, spanGaps: false, points: { show: true, size: 5 } },
    {
      label: 'TTFB ms',
      scale: 'ms',
      stroke: TTFB,
      width: 2,
      dash: [4, 4],
      spanGaps: false,
      points: { show: true, size: 5 },
    },
    { label: 'CLS', scale: 'cls', stroke: CLS, width: 1, spanGaps: false, points: { show: true, size: 4 } },
  ],
};

/**
 * A browser check's Web Vitals over its recent results (oldest left): LCP and TTFB in ms, CLS on
 * its own axis, a gap where a run did not report one. The figure's label says the latest values.
 */
export function WebVitalsChart({
  results,
}: {
  /** Newest first, as GET /v1/checks/{id}/results answers; only those with vitals. */
  results: readonly VitalsResult[];
}) {
  const data = useMemo<uPlot.AlignedData>(() => {
    const oldestFirst = [...results].reverse();
    const of = (key: keyof Vitals) => oldestFirst.map((r) => r.details?.vitals?.[key] ?? null);
    return [oldestFirst.map((r) => Date.parse(r.checked_at) / 1000), of('lcp_ms'), of('ttfb_ms'), of('cls')];
  }, [results]);
  const n = results.length;
  const latest = results[0]?.details?.vitals ?? {};
  return (
    <UplotChart
      options={OPTIONS}
      data={data}
      height={180}
      label={`Web Vitals, last ${n} result${n === 1 ? '' : 's'}; latest: ${vitalsWords(latest)}`}
    />
  );
}
