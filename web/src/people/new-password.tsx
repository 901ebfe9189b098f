import { TextField } from '../ui/fields';

/** What the server's password policy asks (lib/people/password-policy.ts), said before it refuses. */
const PASSWORD_HINT = 'At least 10 characters; not a common password and not your e-mail address.';

/** The confirmation's error when the two fields differ (undefined while they agree or it is empty). */
function mismatch(password: string, again: string): string | undefined {
  return again !== '' && again !== password ? 'The two passwords differ.' : undefined;
}

/** A new password typed twice; the server's refusal (policy) shows at the first field. */
export function NewPasswordFields({
  password,
  again,
  onPassword,
  onAgain,
  error,
  label = 'New password',
}: {
  password: string;
  again: string;
  onPassword: (value: string) => void;
  onAgain: (value: string) => void;
  error?: string | undefined;
  label?: string;
}) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        error={error}
        hint={PASSWORD_HINT}
        required
      />
      <TextField
        label="Repeat the password"
        type="password"
        name="new-password-again"
        autoComplete="new-password"
        value={again}
        onChange={onAgain}
        error={mismatch(password, again)}
        required
      />
    </>
  );
}

/** Whether a new password form may be sent: both fields filled and equal. */
export function passwordsReady(password: string, again: string): boolean {
  return password !== '' && password === again;
}
