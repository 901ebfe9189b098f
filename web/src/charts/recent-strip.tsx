/**
 * An entity's recent-results strip (GET /v1/status?include=recent): one bar per result time, oldest
 * left, coloured by the worst result at that time, with its time and state on hover. The bars are
 * hidden from assistive technology; a sentence says the same ("Last 30 results: 28 up, 2 down;
 * newest: down").
 */

/** One result time of the strip, as the API answers it. */
export interface Slot {
  at: string;
  state: 'up' | 'degraded' | 'down';
}

/** The strip in words, for screen readers and as the text alternative of the bars. */
function stripWords(slots: readonly Slot[]): string {
  if (slots.length === 0) return 'No results yet';
  const count = (state: Slot['state']) => slots.filter((s) => s.state === state).length;
  const parts = (['up', 'degraded', 'down'] as const)
    .map((state) => [state, count(state)] as const)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  const newest = slots.at(-1)?.state ?? 'up';
  return `Last ${slots.length} results: ${parts.join(', ')}; newest: ${newest}`;
}

/** Each slot with a key: its time, numbered when two results share a time (pushes with one checked_at). */
function keyedByTime(slots: readonly Slot[]): { key: string; slot: Slot }[] {
  const seen = new Map<string, number>();
  return slots.map((slot) => {
    const n = (seen.get(slot.at) ?? 0) + 1;
    seen.set(slot.at, n);
    return { key: `${slot.at}#${n}`, slot };
  });
}

export function RecentStrip({ slots }: { slots: readonly Slot[] | undefined }) {
  if (!slots) return null;
  if (slots.length === 0) return <span className="muted">no results yet</span>;
  return (
    <span className="recent-strip" data-testid="recent-strip">
      <span className="strip-bars" aria-hidden="true">
        {keyedByTime(slots).map(({ key, slot: s }) => (
          <span
            key={key}
            className={`strip-bar strip-${s.state}`}
            title={`${new Date(s.at).toLocaleString()}: ${s.state}`}
          />
        ))}
      </span>
      <span className="visually-hidden">{stripWords(slots)}</span>
    </span>
  );
}
