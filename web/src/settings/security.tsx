import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { NewPasswordFields, passwordsReady } from '../people/new-password';
import { ErrorNote, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { settingsKeys } from './queries';
import { TwoFactor } from './two-factor';

/** Security: your password and two-factor sign-in. */
export function SecuritySection() {
  return (
    <Section title="Security">
      <ChangePassword />
      <TwoFactor />
    </Section>
  );
}

/** Sets or changes your password; your other sessions are signed out (API keys keep working). */
function ChangePassword() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const change = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/me/password', {
          body: current === '' ? { password } : { current_password: current, password },
        }),
      ),
    onSuccess: () => {
      setCurrent('');
      setPassword('');
      setAgain('');
      void queryClient.invalidateQueries({ queryKey: settingsKeys.sessions });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change.mutate();
  };
  const errs = fieldErrors(change.error);
  return (
    <form onSubmit={submit}>
      <h3>Password</h3>
      <TextField
        label="Current password"
        type="password"
        name="current-password"
        autoComplete="current-password"
        value={current}
        onChange={setCurrent}
        error={errs.current_password}
        hint="Leave it empty if you have never set one (you signed in with SSO or a key)."
      />
      <NewPasswordFields
        password={password}
        again={again}
        onPassword={setPassword}
        onAgain={setAgain}
        error={errs.password}
      />
      {change.isSuccess ? (
        <Notice>Your password is changed. Your other sessions were signed out; API keys keep working.</Notice>
      ) : null}
      <ErrorNote error={change.error} title="The password was not changed." />
      <button
        type="submit"
        className="primary"
        disabled={change.isPending || !passwordsReady(password, again)}
      >
        Change password
      </button>
    </form>
  );
}
