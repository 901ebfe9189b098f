import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { FreshKey } from './fresh-key';
import { locationKeys } from './queries';

const KINDS = [
  { value: 'agent', label: 'Private agent' },
  { value: 'aws_region', label: 'AWS region' },
] as const;
type Kind = (typeof KINDS)[number]['value'];

/** Creates a location (admins); its first key is shown here once. */
export function LocationForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('agent');
  const [fresh, setFresh] = useState<{ name: string; key: string }>();
  const create = useMutation({
    mutationFn: () => must(api.POST('/v1/locations', { body: { name: name.trim(), kind } })),
    onSuccess: (made) => {
      setFresh({ name: made.name, key: made.key });
      setName('');
      void queryClient.invalidateQueries({ queryKey: locationKeys.all });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFresh(undefined);
    create.mutate();
  };
  const errs = fieldErrors(create.error);
  return (
    <>
      {fresh ? <FreshKey name={fresh.name} keyText={fresh.key} onDone={() => setFresh(undefined)} /> : null}
      <form className="row" onSubmit={submit} aria-label="Create a location">
        <TextField
          label="Name"
          value={name}
          onChange={setName}
          error={errs.name}
          hint="Lower-case letters, digits and hyphens: office, eu-west-1."
          required
        />
        <SelectField
          label="Kind"
          value={kind}
          onChange={(v) => setKind(v === 'aws_region' ? 'aws_region' : 'agent')}
          options={KINDS}
          error={errs.kind}
        />
        <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
          Create location
        </button>
      </form>
      <ErrorNote error={create.error} title="The location was not created." />
    </>
  );
}
