import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, fieldErrors, must } from '../api/client';
import { NewPasswordFields, passwordsReady } from '../people/new-password';
import { useSessionState } from '../session';
import { CopyBlock } from '../ui/bits';
import { ErrorNote } from '../ui/feedback';
import { TextField } from '../ui/fields';

/**
 * The invitation page (public): the token comes in the link, the invitee gives their name and a
 * password, and the API creates the member and signs them in (a session cookie): they land on the
 * status page. Should no session come back (a server without sessions), the first API key the API
 * answers is shown once instead, as before.
 */
export function AcceptPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { signIn, adoptCookieSession } = useSessionState();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [accepted, setAccepted] = useState<{ key: string; email: string } | undefined>();
  const [signInError, setSignInError] = useState<unknown>();

  useEffect(() => {
    document.title = 'Join your team · Vigil';
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const made = await must(api.POST('/v1/settings/users/accept', { body: { token, name, password } }));
      try {
        await adoptCookieSession();
        navigate('/status');
      } catch {
        setAccepted({ key: made.key, email: made.user.email });
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const signInWithKey = async () => {
    if (!accepted) return;
    setSignInError(undefined);
    try {
      await signIn(accepted.key);
      navigate('/status');
    } catch (err) {
      setSignInError(err);
    }
  };

  const errs = fieldErrors(error);
  return (
    <main id="main" className="sign-in accept">
      <h1>Join your team on Vigil</h1>
      {token === '' ? (
        <div className="note note-error" role="alert">
          This link has no invitation token. Open the whole link you were sent, or ask an admin for a new
          invitation.
        </div>
      ) : accepted ? (
        <div role="status">
          <p>
            Welcome, {accepted.email}. This is your first API key:{' '}
            <strong>copy it now, it will not be shown again</strong>. You sign in with it and can make more
            keys under Settings.
          </p>
          <CopyBlock text={accepted.key} label="Your API key" />
          <button type="button" className="primary" onClick={signInWithKey}>
            Sign in with this key
          </button>
          <ErrorNote error={signInError} title="Sign-in failed." />
        </div>
      ) : (
        <form onSubmit={submit}>
          <p>
            You were invited to a Vigil account. Tell your team who you are and choose a password to accept.
          </p>
          <TextField
            label="Your name"
            value={name}
            onChange={setName}
            error={errs.name}
            required
            autoComplete="name"
          />
          <NewPasswordFields
            label="Password"
            password={password}
            again={again}
            onPassword={setPassword}
            onAgain={setAgain}
            error={errs.password}
          />
          {errs.token ? (
            <p className="note note-error" role="alert">
              This invitation is no longer valid: it may have been used, cancelled or have expired. Ask an
              admin for a new one.
            </p>
          ) : (
            <ErrorNote error={error} title="The invitation was not accepted." />
          )}
          <button
            type="submit"
            className="primary"
            disabled={busy || name.trim() === '' || !passwordsReady(password, again)}
          >
            {busy ? 'Accepting…' : 'Accept invitation'}
          </button>
        </form>
      )}
    </main>
  );
}
