import { type ComponentProps, Fragment, type ReactNode } from 'react';
import { scrollRegion } from './scroll-region';

/** One column of a Table: its heading and how a row fills its cell. */
export interface Column<T> {
  /** The heading (a visually hidden one where the column holds a row's controls). */
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** The cell names the row (`<th scope="row">`). */
  rowHeader?: boolean;
  className?: string;
}

/** A row's unfolded detail: a full-width row under it (its id for the control's aria-controls). */
export interface RowDetail {
  id?: string;
  content: ReactNode;
}

/**
 * The console's one table: headings from the columns, one row per item, an optional detail row
 * under a row, in a box that scrolls sideways on a phone (named, focusable: axe's
 * scrollable-region-focusable). A column given as `false` is left out (a control column a
 * read-only key does not get).
 */
export function Table<T>({
  label,
  caption,
  showCaption = false,
  columns,
  rows,
  rowKey,
  rowProps,
  detail,
  before,
}: {
  /** The table's name (and its scroll box's); a caption, when given, names the table instead. */
  label: string;
  caption?: ReactNode;
  /** The caption shows (muted) instead of being for screen readers only. */
  showCaption?: boolean;
  columns: readonly (Column<T> | false | '' | null | undefined)[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowProps?: (row: T) => ComponentProps<'tr'>;
  detail?: (row: T) => RowDetail | null | undefined;
  /** What stands above the table inside its box (an error note of the table's own controls). */
  before?: ReactNode;
}) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  return (
    <div className="table-wrap" {...scrollRegion(label)}>
      {before}
      <table aria-label={caption ? undefined : label}>
        {caption ? <caption className={showCaption ? 'muted' : 'visually-hidden'}>{caption}</caption> : null}
        <thead>
          <tr>
            {shown.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a column is known by its place in the row
              <th key={i} scope="col" className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const more = detail?.(row);
            return (
              <Fragment key={rowKey(row)}>
                <tr {...rowProps?.(row)}>
                  {shown.map((c, i) =>
                    c.rowHeader ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: as above
                      <th key={i} scope="row" className={c.className}>
                        {c.cell(row)}
                      </th>
                    ) : (
                      // biome-ignore lint/suspicious/noArrayIndexKey: as above
                      <td key={i} className={c.className}>
                        {c.cell(row)}
                      </td>
                    ),
                  )}
                </tr>
                {more ? (
                  <tr id={more.id}>
                    <td colSpan={shown.length}>{more.content}</td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      );
    </div>
  );
}
