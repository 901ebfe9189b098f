import { type KeyboardEvent, type ReactNode, useId, useState } from 'react';
import { StateBadge } from '../ui/bits';
import { type SearchKind, type SearchResult, useSearch } from './queries';
import './search.css';

/** How each kind is headed in the results, in the order the API groups them. */
const KIND_HEADINGS: Record<SearchKind, string> = {
  entity: 'Entities',
  check: 'Checks',
  channel: 'Channels',
  incident: 'Incidents',
  status_page: 'Status pages',
};

/**
 * A search box with its results as a listbox (the ARIA combobox pattern): typing asks the server,
 * results are grouped by kind, the arrow keys move through them, Enter or a click chooses one.
 * `kind` limits it to one kind (an entity picker); `onEscape` lets a dialog close on Escape.
 */
export function SearchCombobox({
  label,
  kind,
  limit,
  onChoose,
  onEscape,
  autoFocus,
  hint,
}: {
  label: string;
  kind?: SearchKind;
  limit?: number;
  onChoose: (result: SearchResult) => void;
  onEscape?: () => void;
  autoFocus?: boolean;
  hint?: ReactNode;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useSearch(text, { kind, limit });
  const results = text.trim() === '' ? [] : (search.data ?? []);
  const open = text.trim() !== '';
  const optionId = (index: number) => `${id}-option-${index}`;
  const current = results.length > 0 ? Math.min(active, results.length - 1) : -1;

  const choose = (result: SearchResult | undefined) => {
    if (!result) return;
    onChoose(result);
    setText('');
    setActive(0);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && results.length > 0) {
      event.preventDefault();
      setActive((current + 1) % results.length);
    } else if (event.key === 'ArrowUp' && results.length > 0) {
      event.preventDefault();
      setActive((current - 1 + results.length) % results.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(results[current]);
    } else if (event.key === 'Escape') {
      if (text !== '') {
        event.preventDefault();
        event.stopPropagation();
        setText('');
      } else onEscape?.();
    }
  };

  const groups = (Object.keys(KIND_HEADINGS) as SearchKind[])
    .map((k) => ({ kind: k, items: results.flatMap((r, index) => (r.kind === k ? [{ r, index }] : [])) }))
    .filter((g) => g.items.length > 0);
  const status = !open
    ? ''
    : search.isFetching && !search.data
      ? 'Searching…'
      : search.isError
        ? 'The search could not be done.'
        : search.settled && results.length === 0 && !search.isFetching
          ? `Nothing found for “${text.trim()}”.`
          : `${results.length} found`;

  return (
    <div className="search-combobox">
      <label htmlFor={`${id}-input`}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        autoComplete="off"
        // biome-ignore lint/a11y/noAutofocus: the box is what a keyboard shortcut or a button opened
        autoFocus={autoFocus}
        aria-autocomplete="list"
        aria-expanded={open && results.length > 0}
        aria-controls={`${id}-listbox`}
        aria-activedescendant={current >= 0 ? optionId(current) : undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <p className="search-status muted" role="status">
        {status}
      </p>
      <div id={`${id}-listbox`} role="listbox" aria-label={`${label}: results`} hidden={results.length === 0}>
        {groups.map((g) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's group is an ARIA group (a fieldset is a form part)
          <div key={g.kind} role="group" aria-labelledby={`${id}-${g.kind}`}>
            <div className="search-group" id={`${id}-${g.kind}`} role="presentation">
              {KIND_HEADINGS[g.kind]}
            </div>
            {g.items.map(({ r, index }) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (aria-activedescendant)
              <div
                key={`${r.kind}:${r.id}`}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === current}
                className={index === current ? 'search-option active' : 'search-option'}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(r)}
              >
                <span className="search-name">{r.name}</span>
                {r.context ? <span className="muted"> · {r.context}</span> : null}
                {r.state ? (
                  <>
                    {' '}
                    <StateBadge state={r.state} />
                  </>
                ) : null}
              </div>
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}
