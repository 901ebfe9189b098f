import { type ReactNode, useState, useSyncExternalStore } from 'react';
import { relativeWords } from './time-words';

/** An entity or check state, coloured and in words (never colour alone). */
export function StateBadge({ state }: { state: string | null | undefined }) {
  const s = state ?? 'unknown';
  return <span className={`badge state-${s}`}>{s}</span>;
}

/** Copies `text` to the clipboard and says so. */
function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | undefined>();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <button type="button" onClick={copy} aria-live="polite">
      {copied === 'yes' ? 'Copied' : copied === 'no' ? 'Select and copy it by hand' : label}
    </button>
  );
}

/** A block of text to copy (a key, a URL, a command), with its copy button. */
export function CopyBlock({ text, label }: { text: string; label: string }) {
  return (
    <figure className="copy-block" aria-label={label}>
      <pre>
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={`Copy ${label.toLowerCase()}`} />
    </figure>
  );
}

/** One clock for every relative time on the page: it ticks every 15 s while something shows one. */
const TICK_MS = 15_000;
const listeners = new Set<() => void>();
let nowMs = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    nowMs = Date.now();
    timer = setInterval(() => {
      nowMs = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** Now (ms), shared by every relative time and refreshed every 15 s. */
function useNow(): number {
  return useSyncExternalStore(subscribe, () => nowMs);
}

/** `iso` relative to now in words ("3 min ago"), refreshed with the shared clock; "never" without one. */
export function useRelativeTime(iso: string | null | undefined): string {
  const now = useNow();
  if (!iso) return 'never';
  return relativeWords(Date.parse(iso), Math.max(now, Date.now() - TICK_MS));
}

/**
 * A timestamp relative to now ("3 min ago", "in 20 s"), with the reader's local date and time on
 * hover (title) and the exact time in `<time dateTime>` for machines and tests. A link around it
 * that needs a longer name passes the same words in its aria-label (useRelativeTime), so the
 * name holds the visible text.
 */
export function Time({ iso }: { iso: string | null | undefined }) {
  const words = useRelativeTime(iso);
  if (!iso) return <span className="muted">never</span>;
  return (
    <time dateTime={iso} title={new Date(Date.parse(iso)).toLocaleString()}>
      {words}
    </time>
  );
}

/** A link that opens in a new tab, and says so to a screen reader. */
export function NewTabLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

/** A secret just made, shown once: what it is and its copy boxes (the children), then "I have copied it" to put it away. */
export function ShownOnce({ onDone, children }: { onDone: () => void; children: ReactNode }) {
  return (
    <div className="fresh-key" role="status">
      {children}
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
