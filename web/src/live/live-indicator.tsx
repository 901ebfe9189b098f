import type { StreamState } from './status-stream';

/** The header's connection indicator: "live" or "reconnecting…", announced politely. */
export function LiveIndicator({ state }: { state: StreamState }) {
  const text = state === 'live' ? 'live' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
  return (
    <span className={`live-indicator live-${state}`} role="status" title="Status updates from the server">
      <span className="live-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
