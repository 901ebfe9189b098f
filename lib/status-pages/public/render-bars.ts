import { PAGE_DAYS, type PublicPage } from './public-view.ts';

/**
 * An entity's daily uptime bars as lean HTML. A page of 100 entities has 9,000 days, so the bars
 * are drawn in runs: consecutive days of one colour are one element spanning that many columns of
 * a 90-column grid (days at exactly 100 % and days without data need no title; a run below 100 %
 * has one, its dates and its lowest figure). A drawn line between every column keeps each day
 * visible inside a run. The bars are hidden from assistive technology; the text alternative is a
 * visually hidden summary beside them (days below 100 %, the lowest, days without data).
 */

type Day = PublicPage['entities'][number]['days'][number];

/** The bars' stylesheet (part of the page's one hashed stylesheet). */
export const BARS_STYLE = [
  `.bars{display:grid;grid-template-columns:repeat(${PAGE_DAYS},1fr);height:26px;margin-top:6px;position:relative;background:#c9ced6}`,
  // A 1 px line at the start of every column: the days stay apart within a run.
  `.bars::after{content:"";position:absolute;inset:0;background:repeating-linear-gradient(90deg,#fff 0 1px,transparent 1px calc(100% / ${PAGE_DAYS}))}`,
  '.bars i{background:#c9ced6}',
  '.bars .b4{background:#1f9d5c}.bars .b3{background:#8fbf3a}.bars .b2{background:#e0a400}.bars .b1{background:#d9534f}',
  // .s2 to .s90: a run of that many days spans that many columns.
  Array.from({ length: PAGE_DAYS - 1 }, (_, i) => `.s${i + 2}{grid-column:span ${i + 2}}`).join(''),
  '.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}',
].join('');

/** A percentage floored to two decimals (99.999 % is not shown as 100 %). */
export const percent = (ratio: number) => `${(Math.floor(ratio * 10000) / 100).toFixed(2)}%`;

/** A day's colour class: by how much of the day was up; none for a day without data. */
function barClass(ratio: number | null): string {
  if (ratio === null) return '';
  if (ratio >= 0.999) return 'b4';
  if (ratio >= 0.99) return 'b3';
  if (ratio >= 0.95) return 'b2';
  return 'b1';
}

interface Run {
  key: string;
  first: Day;
  last: Day;
  length: number;
  /** The lowest figure in the run (null: no data). */
  lowest: number | null;
}

/** Days of one colour share an element; a day at exactly 100 % never shares one with a day below. */
const keyOf = (ratio: number | null) => `${barClass(ratio)}${ratio === 1 ? '=' : ''}`;

function runsOf(days: readonly Day[]): Run[] {
  const runs: Run[] = [];
  for (const day of days) {
    const run = runs.at(-1);
    const key = keyOf(day.uptime_ratio);
    if (run?.key === key) {
      run.last = day;
      run.length += 1;
      if (run.lowest !== null && day.uptime_ratio !== null)
        run.lowest = Math.min(run.lowest, day.uptime_ratio);
    } else runs.push({ key, first: day, last: day, length: 1, lowest: day.uptime_ratio });
  }
  return runs;
}

function titleOf(run: Run): string {
  if (run.lowest === null || run.lowest === 1) return '';
  if (run.length === 1) return ` title="${run.first.date}: ${percent(run.lowest)}"`;
  return ` title="${run.first.date} to ${run.last.date}: lowest ${percent(run.lowest)}"`;
}

function runElement(run: Run): string {
  const classes = [barClass(run.first.uptime_ratio), run.length > 1 ? `s${run.length}` : '']
    .filter(Boolean)
    .join(' ');
  return `<i${classes ? ` class="${classes}"` : ''}${titleOf(run)}></i>`;
}

/** The bars' text alternative: what a reader of the chart would take from it. */
export function barsSummary(days: readonly Day[]): string {
  const known = days.filter((d): d is Day & { uptime_ratio: number } => d.uptime_ratio !== null);
  if (known.length === 0) return `Daily uptime over the last ${days.length} days: no data yet.`;
  const below = known.filter((d) => d.uptime_ratio < 1);
  const count = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  const worst = below.reduce<Day | undefined>(
    (a, b) => (a?.uptime_ratio != null && a.uptime_ratio <= b.uptime_ratio ? a : b),
    undefined,
  );
  const figures =
    worst?.uptime_ratio != null
      ? `below 100% on ${count(below.length)}, lowest ${percent(worst.uptime_ratio)} on ${worst.date}`
      : '100% on every day with data';
  const missing = days.length - known.length;
  return `Daily uptime over the last ${days.length} days: ${figures}${missing > 0 ? `; no data on ${count(missing)}` : ''}.`;
}

/** The bars and their summary (empty when there are no days). */
export function renderBars(days: readonly Day[]): string {
  if (days.length === 0) return '';
  return `<div class="bars" aria-hidden="true">${runsOf(days).map(runElement).join('')}</div><p class="vh">${barsSummary(days)}</p>`;
}
