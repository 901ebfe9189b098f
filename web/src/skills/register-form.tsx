import { type FormEvent, useState } from 'react';
import { ApiError, api, must, type Schemas } from '../api/client';
import { ErrorNote } from '../ui/feedback';
import { TextAreaField } from '../ui/fields';

/** Registering a skill from its manifest (JSON, as docs/mcp.md describes it); the API checks it. */

type Manifest = Schemas['Skill'] extends infer S
  ? Omit<S & object, 'id' | 'created_at' | 'updated_at' | 'enabled'> & { enabled?: boolean }
  : never;

const EXAMPLE = JSON.stringify(
  {
    slug: 'payments-runbooks',
    name: 'Payments runbooks',
    description: 'What on-call may do to the payments service',
    version: '1.0.0',
    tools: [
      {
        name: 'restart_payments',
        description: 'Restarts the payments deployment in the given region.',
        inputSchema: {
          type: 'object',
          properties: { region: { type: 'string' } },
          required: ['region'],
        },
        annotations: { readOnlyHint: false, destructiveHint: true },
        action_id: 'act_…',
      },
    ],
  },
  null,
  2,
);

/** The manifest textarea; `onDone` runs after the API accepted it. */
export function RegisterSkillForm({ onDone }: { onDone: () => void }) {
  const [text, setText] = useState(EXAMPLE);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(text) as Manifest;
    } catch (err) {
      setError(new ApiError(0, 'INVALID_JSON', `the manifest is not JSON (${(err as Error).message})`));
      return;
    }
    setBusy(true);
    try {
      await must(api.POST('/v1/skills', { body: manifest }));
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label="Register a skill">
      <TextAreaField
        label="Manifest (JSON)"
        value={text}
        onChange={setText}
        rows={16}
        hint="slug, name, description, version (semantic) and tools: each with name, description, inputSchema (a JSON Schema object), annotations and, for a runbook tool, the action_id it runs."
      />
      <ErrorNote error={error} title="The skill was not registered." showPaths />
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Registering…' : 'Register skill'}
      </button>
    </form>
  );
}
