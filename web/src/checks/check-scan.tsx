import type { Schemas } from '../api/client';

/** What a row of the checks list shows to scan it: the last results as a strip, the 24 h uptime, the interval. */

type Recent = NonNullable<Schemas['Check']['recent']>;

/**
 * "every 30 s", "every 5 min", "every 2 h", "every day". (The status board's helper brings a
 * shared formatter to web/src/ui; this one is the checks list's until they are folded together.)
 */
export function everyWords(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'every day' : `every ${seconds / 86_400} days`;
  if (seconds % 3600 === 0) return seconds === 3600 ? 'every hour' : `every ${seconds / 3600} h`;
  if (seconds % 60 === 0) return seconds === 60 ? 'every minute' : `every ${seconds / 60} min`;
  return `every ${seconds} s`;
}

/** "last 30 results: 28 up, 2 down"; "no results yet". */
export function stripWords(results: Recent['results']): string {
  if (results.length === 0) return 'no results yet';
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.outcome, (counts.get(r.outcome) ?? 0) + 1);
  const parts = (['up', 'degraded', 'down'] as const).flatMap((o) =>
    counts.has(o) ? [`${counts.get(o)} ${o}`] : [],
  );
  const what = results.length === 1 ? 'last result' : `last ${results.length} results`;
  return `${what}: ${parts.join(', ')}`;
}

/** The check's last results, oldest on the left, one small coloured cell each, read as a sentence. */
export function ResultStrip({ recent }: { recent: Recent | undefined }) {
  if (!recent) return null;
  const words = stripWords(recent.results);
  if (recent.results.length === 0) return <span className="muted">{words}</span>;
  // Two results may share a time (pushed with the same checked_at): number the repeats for keys.
  const seen = new Map<string, number>();
  const cells = recent.results.map((r) => {
    const n = (seen.get(r.checked_at) ?? 0) + 1;
    seen.set(r.checked_at, n);
    return { key: `${r.checked_at}#${n}`, outcome: r.outcome };
  });
  return (
    <span className="result-strip" role="img" aria-label={words} title={words}>
      {cells.map((c) => (
        <span key={c.key} className={`strip-cell strip-${c.outcome}`} />
      ))}
    </span>
  );
}

/** "99.8 %" of the last 24 hours' results that succeeded; "–" without any. */
export function uptimeWords(recent: Recent | undefined): string {
  const share = recent?.uptime_24h;
  if (share === null || share === undefined) return '–';
  const percent = share * 100;
  // Two decimals near 100 (99.95 is not 100), one elsewhere.
  const text = percent >= 99 && percent < 100 ? percent.toFixed(2) : percent.toFixed(1);
  return `${text.replace(/\.0+$/, '')} %`;
}
