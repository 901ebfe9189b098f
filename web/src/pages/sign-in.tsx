import { type FormEvent, useState } from 'react';
import { useSessionState } from '../session';
import { ErrorNote } from '../ui/feedback';
import { TextField } from '../ui/fields';

/** Sign-in with an API key; it is kept in this tab's sessionStorage only. */
export function SignInPage() {
  const { signIn, notice } = useSessionState();
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
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
        <ErrorNote error={error} title="Sign-in failed." />
        <button type="submit" className="primary" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
