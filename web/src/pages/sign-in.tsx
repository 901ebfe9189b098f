import { type FormEvent, useState } from 'react';
import { ApiError } from '../api/client';
import { useSessionState } from '../session';
import { ErrorNote } from '../ui/feedback';
import { TextField } from '../ui/fields';

/** A Vigil key's length: `vgl_` + 32 random characters + a 6-character checksum. */
const KEY_LENGTH = 42;

/** Why a key the API did not know was turned away, and what to check. */
function notRecognised(key: string): string {
  const pasted = key.trim();
  const shape =
    pasted.startsWith('vgl_') && pasted.length === KEY_LENGTH
      ? ''
      : ` The text you pasted has ${pasted.length} characters${pasted.startsWith('vgl_') ? '' : ' and does not start with vgl_'}.`;
  return `That key was not recognised. Check that you pasted the whole key: it starts with vgl_ and is ${KEY_LENGTH} characters long.${shape} A revoked key is not recognised either.`;
}

/** Sign-in with an API key; it is kept in this tab's sessionStorage only. */
export function SignInPage() {
  const { signIn, notice } = useSessionState();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  /** The key as submitted: the explanation of a refusal describes it, not what is typed since. */
  const [tried, setTried] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    setTried(key);
    try {
      await signIn(key);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vigil</h1>
      <p>
        Paste an API key. The first one is printed by <code>npm start</code> on the first run; a read-only key
        gives a read-only console.
      </p>
      {notice ? <p className="note">{notice}</p> : null}
      <form onSubmit={submit}>
        <TextField
          label="API key"
          type="password"
          name="api-key"
          autoComplete="off"
          value={key}
          onChange={setKey}
          required
          hint="Kept in this browser tab only, until you sign out or close it."
        />
        {error instanceof ApiError && error.status === 401 ? (
          <div className="note note-error" role="alert">
            {notRecognised(tried)}
          </div>
        ) : (
          <ErrorNote error={error} title="Sign-in failed." />
        )}
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
