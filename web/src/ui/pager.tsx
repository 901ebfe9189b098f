import { useState } from 'react';

/** The cursors followed so far through a list read with sealed cursors (GET …?cursor=). */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    /** The cursor of the page to read (undefined: the first page). */
    cursor: cursors.at(-1),
    /** How many pages past the first. */
    depth: cursors.length,
    /** Back to the first page (when a filter changes, say). */
    reset: () => setCursors([]),
    /** On to the page `next` names. */
    follow: (next: string) => setCursors((c) => [...c, next]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

/** Buttons back to the first page (once past it) and on to the next (when the answer names one). */
export function CursorPager({
  pages,
  next,
  of,
  first = `Newest ${of}`,
  more = `Older ${of}`,
}: {
  pages: CursorPages;
  next: string | null | undefined;
  /** What the pages list ("incidents"): the buttons read "Newest incidents" and "Older incidents". */
  of?: string;
  first?: string;
  more?: string;
}) {
  return (
    <div className="row">
      {pages.depth > 0 ? (
        <button type="button" onClick={pages.reset}>
          {first}
        </button>
      ) : null}
      {next ? (
        <button type="button" onClick={() => pages.follow(next)}>
          {more}
        </button>
      ) : null}
    </div>
  );
}
