import { CopyBlock, ShownOnce } from '../ui/bits';

/** A location key just made: shown here once, with what to do with it. */
export function FreshKey({ name, keyText, onDone }: { name: string; keyText: string; onDone: () => void }) {
  return (
    <ShownOnce onDone={onDone}>
      <p>
        <strong>The key of “{name}”.</strong> Copy it now: it will not be shown again. Give it to the agent of
        this location (docs/locations.md); it opens nothing but the agent protocol.
      </p>
      <CopyBlock text={keyText} label="New location key" />
    </ShownOnce>
  );
}
