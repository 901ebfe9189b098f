import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, fieldErrors, must } from '../api/client';
import { useSession } from '../session';
import { CopyBlock } from '../ui/bits';
import { ErrorNote, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';

type Step =
  | { at: 'off' }
  | { at: 'enrolling'; secret: string; otpauthUrl: string }
  | { at: 'codes'; codes: string[] }
  | { at: 'on' };

/**
 * Two-factor sign-in (TOTP): set up with an authenticator app from the secret or its otpauth://
 * link (shown while setting up only), confirmed with a first code; then the 10 recovery codes are
 * shown once. Turning it off, or new recovery codes, take a current code or a recovery code.
 */
export function TwoFactor() {
  const { me } = useSession();
  const [step, setStep] = useState<Step>(me.totp_enabled ? { at: 'on' } : { at: 'off' });
  const [code, setCode] = useState('');
  const [said, setSaid] = useState<string | undefined>();

  const enrol = useMutation({
    mutationFn: () => must(api.POST('/v1/me/totp')),
    onSuccess: (made) => setStep({ at: 'enrolling', secret: made.secret, otpauthUrl: made.otpauth_url }),
    // 409: it is on already (set up in another tab or browser).
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) setStep({ at: 'on' });
    },
  });
  const confirm = useMutation({
    mutationFn: () => must(api.POST('/v1/me/totp/confirm', { body: { code: code.trim() } })),
    onSuccess: (made) => {
      setCode('');
      setStep({ at: 'codes', codes: made.recovery_codes });
    },
  });
  const disable = useMutation({
    mutationFn: () => must(api.POST('/v1/me/totp/disable', { body: { code: code.trim() } })),
    onSuccess: () => {
      setCode('');
      setSaid('Two-factor sign-in is off: your password alone signs you in.');
      setStep({ at: 'off' });
    },
  });
  const renew = useMutation({
    mutationFn: () => must(api.POST('/v1/me/recovery-codes', { body: { code: code.trim() } })),
    onSuccess: (made) => {
      setCode('');
      setStep({ at: 'codes', codes: made.recovery_codes });
    },
  });

  const submitConfirm = (e: FormEvent) => {
    e.preventDefault();
    confirm.mutate();
  };
  const submitDisable = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate();
  };

  return (
    <div className="two-factor">
      <h3>Two-factor sign-in</h3>
      {said ? <Notice>{said}</Notice> : null}
      {step.at === 'off' ? (
        <>
          <p>
            Off. With two-factor sign-in on, signing in with your password also asks for a code from an
            authenticator app on your phone.
          </p>
          <ErrorNote
            error={enrol.isError && step.at === 'off' ? enrol.error : undefined}
            title="It was not set up."
          />
          <button
            type="button"
            className="primary"
            disabled={enrol.isPending}
            onClick={() => {
              setSaid(undefined);
              enrol.mutate();
            }}
          >
            Set up two-factor sign-in
          </button>
        </>
      ) : null}
      {step.at === 'enrolling' ? (
        <form onSubmit={submitConfirm} aria-label="Confirm two-factor sign-in">
          <p>
            Add Vigil to your authenticator app: open the setup link on your phone, or type the secret into
            the app. Then enter the code the app shows. This secret is shown only now.
          </p>
          <CopyBlock text={step.secret} label="Secret" />
          <CopyBlock text={step.otpauthUrl} label="Setup link" />
          <TextField
            label="Code from the app"
            name="one-time-code"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            error={fieldErrors(confirm.error).code}
            required
          />
          <ErrorNote error={confirm.error} title="Two-factor sign-in was not turned on." />
          <button type="submit" className="primary" disabled={confirm.isPending || code.trim() === ''}>
            Turn on
          </button>
        </form>
      ) : null}
      {step.at === 'codes' ? (
        <div className="fresh-key" role="status">
          <p>
            <strong>Two-factor sign-in is on.</strong> Keep these recovery codes somewhere safe: each signs
            you in once without the app. They will not be shown again.
          </p>
          <CopyBlock text={step.codes.join('\n')} label="Recovery codes" />
          <button type="button" onClick={() => setStep({ at: 'on' })}>
            I have kept them
          </button>
        </div>
      ) : null}
      {step.at === 'on' ? (
        <form onSubmit={submitDisable} aria-label="Turn off two-factor sign-in">
          <p>On: signing in asks for a code from your authenticator app.</p>
          <TextField
            label="Code or recovery code"
            name="one-time-code"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
            error={fieldErrors(disable.error ?? renew.error).code}
            hint="Needed to turn it off or to get new recovery codes (the old ones then stop working)."
            required
          />
          <ErrorNote error={disable.error ?? renew.error} title="That did not work." />
          <div className="row">
            <button
              type="button"
              disabled={renew.isPending || code.trim() === ''}
              onClick={() => renew.mutate()}
            >
              New recovery codes
            </button>
            <button type="submit" className="danger" disabled={disable.isPending || code.trim() === ''}>
              Turn off
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
