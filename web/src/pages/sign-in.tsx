import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError, fieldErrors } from '../api/client';
import { nextFromHere } from '../people/next-path';
import { ssoFailure } from '../people/words';
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

/** Whether the API asks for the second factor (a 400 whose details name `totp`). */
function asksForCode(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && error.details.some((d) => d.path === 'totp');
}

/** Whether the account takes codes only from known browsers or with the e-mailed link (after wrong codes). */
function codesLocked(error: unknown): boolean {
  return asksForCode(error) && /Too many wrong codes/.test(fieldErrors(error).totp ?? '');
}

/**
 * The sign-in page, shown at whatever address a signed-out person opened (an alert e-mail's link,
 * a bookmark), so signing in lands on that page. People sign in with their e-mail and password
 * (then the one-time code when they use two-factor sign-in) or with their team's SSO; operators
 * may still paste an API key.
 */
export function SignInPage() {
  const { notice } = useSessionState();
  const location = useLocation();
  const [params] = useSearchParams();
  const next = nextFromHere(location);
  useEffect(() => {
    document.title = 'Sign in · Vigil';
  }, []);
  const ssoError = location.pathname === '/sign-in' ? params.get('error') : null;
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Vigil</h1>
      {notice ? <p className="note">{notice}</p> : null}
      {ssoError ? (
        <p className="note note-error" role="alert">
          {ssoFailure(ssoError)}
        </p>
      ) : null}
      <PasswordSignIn />
      <SsoSignIn next={next} />
      <KeySignIn />
    </main>
  );
}

/** E-mail and password, then (when the account has two-factor sign-in) the code. */
function PasswordSignIn() {
  const { signInWithPassword } = useSessionState();
  // The sign-in link e-mailed to an account locked after wrong codes: sent with this sign-in.
  const [params] = useSearchParams();
  const link = params.get('link') ?? undefined;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const withLink = link === undefined ? {} : { link };
      await signInWithPassword(
        step === 'code'
          ? { email, password, totp: code.trim(), ...withLink }
          : { email, password, ...withLink },
      );
    } catch (err) {
      if (step === 'password' && asksForCode(err)) {
        setStep('code');
        // A locked account says so (and that a link was e-mailed) before any code is typed.
        if (codesLocked(err)) setError(err);
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };
  const back = () => {
    setStep('password');
    setCode('');
    setError(undefined);
  };

  if (step === 'code')
    return (
      <form onSubmit={submit}>
        <p>
          Two-factor sign-in is on for {email}. Enter the 6-digit code your authenticator app shows, or one of
          your recovery codes.
        </p>
        <TextField
          label="Code"
          name="one-time-code"
          autoComplete="one-time-code"
          value={code}
          onChange={setCode}
          error={fieldErrors(error).totp}
          required
        />
        <ErrorNote error={error} title="Sign-in failed." />
        <div className="row">
          <button type="submit" className="primary" disabled={busy || code.trim() === ''}>
            {busy ? 'Checking…' : 'Verify'}
          </button>
          <button type="button" onClick={back}>
            Back
          </button>
        </div>
      </form>
    );

  return (
    <form onSubmit={submit}>
      {link === undefined ? null : (
        <p className="note">
          You opened the sign-in link from your e-mail: sign in with your password and code here, in this
          browser. The link works once.
        </p>
      )}
      <TextField
        label="E-mail"
        type="email"
        name="email"
        autoComplete="username"
        value={email}
        onChange={setEmail}
        required
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
        required
      />
      {error instanceof ApiError && error.status === 401 ? (
        <div className="note note-error" role="alert">
          That e-mail and password do not match an account. Check both, or reset your password.
        </div>
      ) : (
        <ErrorNote error={error} title="Sign-in failed." />
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={busy || email.trim() === '' || password === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <Link to="/forgot-password">Forgot your password?</Link>
      </div>
    </form>
  );
}

/** Single sign-on: the team (its id or SSO name) picks the provider; the server redirects there. */
function SsoSignIn({ next }: { next: string }) {
  const [team, setTeam] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const query = new URLSearchParams({ tenant: team.trim(), next });
    window.location.assign(`/v1/sso/start?${query}`);
  };
  return (
    <section className="sign-in-alt" aria-labelledby="sso-title">
      <h2 id="sso-title">Sign in with SSO</h2>
      <form onSubmit={submit} aria-label="Sign in with SSO">
        <TextField
          label="Team"
          name="team"
          autoComplete="organization"
          value={team}
          onChange={setTeam}
          required
          hint="Your team's SSO name or id, as your admin gave it to you."
        />
        <button type="submit" disabled={team.trim() === ''}>
          Continue with SSO
        </button>
      </form>
    </section>
  );
}

/** Sign-in with an API key, for operators and scripts; the key is kept in this tab's sessionStorage only. */
function KeySignIn() {
  const { signIn } = useSessionState();
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
    <details className="sign-in-alt">
      <summary>Sign in with an API key</summary>
      <p>
        For operators: paste an API key. The first one is printed by <code>npm start</code> on the first run;
        a read-only key gives a read-only console.
      </p>
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
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in with the key'}
        </button>
      </form>
    </details>
  );
}
