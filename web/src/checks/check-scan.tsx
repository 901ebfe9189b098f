import type { Schemas } from '../api/client';
import { RecentStrip } from '../charts/recent-strip';

/** What a row of the checks list shows to scan it: the last results as a strip, the 24 h uptime, the interval. */

type Recent = NonNullable<Schemas['Check']['recent']>;

/** The check's last results as the shared strip (oldest on the left), read as a sentence. */
export function ResultStrip({ recent }: { recent: Recent | undefined }) {
  if (!recent) return null;
  return <RecentStrip slots={recent.results.map((r) => ({ at: r.checked_at, state: r.outcome }))} />;
}

/**
 * "99.8 %" of the last 24 hours' results that succeeded; "–" without any. For a check's `recent`
 * (the checks list) and a status board entity (its checks together).
 */
export function uptimeWords(recent: { uptime_24h?: number | null } | undefined): string {
  const share = recent?.uptime_24h;
  if (share === null || share === undefined) return '–';
  const percent = share * 100;
  // Two decimals near 100 (99.95 is not 100), one elsewhere.
  const text = percent >= 99 && percent < 100 ? percent.toFixed(2) : percent.toFixed(1);
  return `${text.replace(/\.0+$/, '')} %`;
}
