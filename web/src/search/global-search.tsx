import { useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SearchCombobox } from './search-combobox';

/** Whether a key press lands in a place where "/" is text (a field), not the shortcut. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // The search box of a dialog just closed can keep the focus until the browser's next frame.
  if (target.closest('dialog') && !target.closest('dialog[open]')) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The header's search: a button, "/" (outside a field) or Ctrl/Cmd-K opens a modal dialog with a
 * search box over the account's entities, checks, channels, incidents and status pages; Enter (or a
 * click) opens the chosen one's page, Escape closes it.
 */
export function GlobalSearch() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [opened, setOpened] = useState(0);
  const navigate = useNavigate();
  const open = () => {
    if (dialog.current?.open) return;
    // A new key remounts the box: each opening starts empty and focused.
    setOpened((n) => n + 1);
    dialog.current?.showModal();
  };
  const close = () => dialog.current?.close();
  const opener = useRef(open);
  opener.current = open;

  // Listening from the moment the header is drawn (a layout effect runs before the browser paints
  // it): a key pressed as soon as the page shows is not lost.
  useLayoutEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      const k = event.key.toLowerCase();
      if ((event.ctrlKey || event.metaKey) && k === 'k') {
        event.preventDefault();
        opener.current();
      } else if (
        event.key === '/' &&
        !event.ctrlKey &&
        !event.metaKey &&
        !event.altKey &&
        !typingIn(event.target)
      ) {
        event.preventDefault();
        opener.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button type="button" className="search-open" onClick={open} aria-keyshortcuts="/ Control+K Meta+K">
        Search <kbd>/</kbd>
      </button>
      <dialog ref={dialog} className="search-dialog" aria-label="Search">
        {opened > 0 ? (
          <SearchCombobox
            key={opened}
            label="Search entities, checks, channels, incidents and status pages"
            hint="↑ and ↓ move, Enter opens, Escape closes."
            autoFocus
            onEscape={close}
            onChoose={(result) => {
              close();
              navigate(result.path);
            }}
          />
        ) : null}
        <div className="row">
          <button type="button" onClick={close}>
            Close
          </button>
        </div>
      </dialog>
    </>
  );
}
