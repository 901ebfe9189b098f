/**
 * What the server said a saved channel cannot do on this deployment (`warnings` of the create,
 * attach and update answers: an email channel without an SMTP server or sender), in the words its
 * deliveries would fail with.
 */
export function SaveWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
  if (!warnings || warnings.length === 0) return null;
  return (
    <div className="note note-error" role="alert">
      <strong>Saved, but its alerts will fail until the operator sets this up:</strong>
      <ul>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </div>
  );
}
