import { useState } from 'react';

/** An entity or check state, coloured and in words (never colour alone). */
export function StateBadge({ state }: { state: string | null | undefined }) {
  const s = state ?? 'unknown';
  return <span className={`badge state-${s}`}>{s}</span>;
}

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
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

/** A timestamp as the reader's local time, with the exact ISO time on hover. */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">never</span>;
  const d = new Date(iso);
  return (
    <time dateTime={iso} title={iso}>
      {d.toLocaleString()}
    </time>
  );
}
