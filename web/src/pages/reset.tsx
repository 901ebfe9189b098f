import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, fieldErrors, must } from '../api/client';
import { NewPasswordFields, passwordsReady } from '../people/new-password';
import { ErrorNote, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';

/**
 * Password reset (public pages): ask for a link by e-mail, then set a new password from the link
 * (`/reset?token=…`, single use, 30 minutes). The answer to the request is the same whether or not
 * an account uses the address, so the page cannot tell who has one.
 */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Reset your password · Vigil';
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await must(api.POST('/v1/password-reset', { body: { email: email.trim() } }));
      setSentTo(email.trim());
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1>Reset your password</h1>
      {sentTo ? (
        <Notice>
          If an account uses {sentTo}, an e-mail with a link to set a new password is on its way. The link
          works once, for 30 minutes.
        </Notice>
      ) : (
        <form onSubmit={submit} aria-label="Ask for a reset link">
          <p>Give the e-mail address you sign in with; we send a link to set a new password.</p>
          <TextField
            label="E-mail"
            type="email"
            name="email"
            autoComplete="username"
            value={email}
            onChange={setEmail}
            error={fieldErrors(error).email}
            required
          />
          <ErrorNote error={error} title="No link was sent." />
          <button type="submit" className="primary" disabled={busy || email.trim() === ''}>
            {busy ? 'Sending…' : 'Send the link'}
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign-in</Link>
      </p>
    </main>
  );
}

/** The reset link's page: a new password, typed twice; all the account's sessions end. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    document.title = 'Set a new password · Vigil';
  }, []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await must(api.POST('/v1/password-reset/confirm', { body: { token, password } }));
      setDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const errs = fieldErrors(error);
  return (
    <main id="main" className="sign-in">
      <h1>Set a new password</h1>
      {token === '' ? (
        <div className="note note-error" role="alert">
          This link has no reset token. Open the whole link from the e-mail, or ask for a new one.
        </div>
      ) : done ? (
        <Notice>
          Your password is set, and every session of your account was signed out.{' '}
          <Link to="/sign-in">Sign in</Link> with the new password.
        </Notice>
      ) : (
        <form onSubmit={submit}>
          <NewPasswordFields
            password={password}
            again={again}
            onPassword={setPassword}
            onAgain={setAgain}
            error={errs.password}
          />
          {errs.token ? (
            <p className="note note-error" role="alert">
              This reset link is no longer valid: it was used already or is older than 30 minutes.{' '}
              <Link to="/forgot-password">Ask for a new one</Link>.
            </p>
          ) : (
            <ErrorNote error={error} title="The password was not set." />
          )}
          <button type="submit" className="primary" disabled={busy || !passwordsReady(password, again)}>
            {busy ? 'Setting…' : 'Set the password'}
          </button>
        </form>
      )}
      {done ? null : (
        <p>
          <Link to="/sign-in">Back to sign-in</Link>
        </p>
      )}
    </main>
  );
}
