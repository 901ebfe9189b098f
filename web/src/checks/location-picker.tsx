import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { locationQueries } from '../locations/queries';
import { KIND_WORDS } from '../locations/words';
import { asSentence, ErrorNote } from '../ui/feedback';
import { CheckboxField, TextField } from '../ui/fields';
import { DEFAULT_LOCATION, defaultQuorum } from './locations';

/**
 * Where a pull check is probed from: a checkbox per location of GET /v1/locations (`default`, the
 * runtime's own workers, first), and with several chosen the quorum, how many must fail for a slot
 * to fail (blank: the majority, shown as the placeholder). Errors from the API show at the fields.
 */
export function LocationPicker({
  chosen,
  quorum,
  onChosen,
  onQuorum,
  errors,
}: {
  chosen: readonly string[];
  quorum: string;
  onChosen: (locations: string[]) => void;
  onQuorum: (quorum: string) => void;
  errors: Record<string, string>;
}) {
  const hintId = useId();
  const list = useQuery(locationQueries.list());
  const known = list.data ?? [];
  // `default` first, then the tenant's as listed; a chosen one the list lacks (deleted) stays shown.
  const names = [
    DEFAULT_LOCATION,
    ...known.map((l) => l.name).filter((n) => n !== DEFAULT_LOCATION),
    ...chosen.filter((n) => n !== DEFAULT_LOCATION && !known.some((l) => l.name === n)),
  ];
  const describe = (name: string) => {
    const l = known.find((x) => x.name === name);
    if (!l) return name === DEFAULT_LOCATION ? `${name} (this runtime)` : `${name} (no longer listed)`;
    return `${name} (${KIND_WORDS[l.kind]}${l.kind === 'runtime' ? '' : `, ${l.state}`})`;
  };
  const toggle = (name: string, on: boolean) =>
    onChosen(on ? [...chosen.filter((n) => n !== name), name] : chosen.filter((n) => n !== name));
  const listError = errors.locations ?? Object.entries(errors).find(([p]) => p.startsWith('locations.'))?.[1];
  return (
    <fieldset className="location-picker" aria-describedby={hintId}>
      <legend>Locations</legend>
      <p className="hint" id={hintId}>
        Where the check is probed from. With several, each slot is decided by the quorum: a location that does
        not report in time is unknown, never a failure.
      </p>
      <ErrorNote error={list.error} title="The locations could not be read." />
      <div className="location-choices">
        {names.map((name) => (
          <CheckboxField
            key={name}
            label={describe(name)}
            checked={chosen.includes(name)}
            onChange={(on) => toggle(name, on)}
          />
        ))}
      </div>
      {listError ? (
        <p className="field-error" role="alert">
          {asSentence(listError)}
        </p>
      ) : null}
      {chosen.length > 1 ? (
        <TextField
          label="Quorum"
          type="number"
          value={quorum}
          onChange={onQuorum}
          placeholder={String(defaultQuorum(chosen.length))}
          hint={`How many of the ${chosen.length} locations must fail for the check to count a failure; blank: a majority (${defaultQuorum(chosen.length)})`}
          error={errors.quorum}
        />
      ) : null}
    </fieldset>
  );
}
