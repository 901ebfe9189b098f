import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading, Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { CONTACT_KINDS as KINDS, type Kind } from './contact-kinds';
import { contactQueries, contactsChanged } from './queries';

type Method = Schemas['ContactMethod'];

/** A method in words: its kind, label and address. */
export const methodWords = (m: Method) =>
  `${KINDS[m.kind].label}${m.address ? ` ${m.address}` : ''}${m.label ? ` (${m.label})` : ''}`;

/**
 * Your contact methods (issue 55 item 2): each added unverified and sent a 6-digit code, verified
 * here with the code (the console's own is verified at once); a new code on request; delete.
 */
export function ContactMethodsSection() {
  const methods = useQuery(contactQueries.methods());
  return (
    <Section title="Contact methods">
      <p className="muted">
        How you are paged when you are on call. Each is verified with a code sent to it before use.
      </p>
      <ErrorNote error={methods.error} title="Your contact methods could not be loaded." />
      {methods.isPending ? (
        <Loading what="your contact methods" />
      ) : (methods.data ?? []).length === 0 ? (
        <Empty title="No contact methods yet.">Add one below: nobody can page you without one.</Empty>
      ) : (
        <ul className="plain contact-list">
          {(methods.data ?? []).map((m) => (
            <MethodItem key={m.id} method={m} />
          ))}
        </ul>
      )}
      <AddMethodForm />
    </Section>
  );
}

function MethodItem({ method }: { method: Method }) {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const onDone = () => contactsChanged(queryClient);
  const verify = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/me/contact-methods/{id}/verify', {
          params: { path: { id: method.id } },
          body: { code },
        }),
      ),
    onSuccess: onDone,
  });
  const resend = useMutation({
    mutationFn: () =>
      must(api.POST('/v1/me/contact-methods/{id}/resend', { params: { path: { id: method.id } }, body: {} })),
    onSuccess: onDone,
  });
  const remove = useMutation({
    mutationFn: () =>
      must(api.DELETE('/v1/me/contact-methods/{id}', { params: { path: { id: method.id } } })),
    onSuccess: onDone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    verify.mutate();
  };
  const words = methodWords(method);
  return (
    <li className="contact-method">
      <p className="row">
        <strong>{words}</strong>
        <span className={`badge ${method.verified ? 'state-up' : 'state-degraded'}`}>
          {method.verified ? 'Verified' : 'Not verified'}
        </span>
      </p>
      {method.verified ? null : (
        <form onSubmit={submit} className="row" aria-label={`Verify ${words}`}>
          <TextField
            label="Code"
            value={code}
            onChange={setCode}
            autoComplete="one-time-code"
            hint={
              method.verification
                ? `The 6-digit code sent to it (${method.verification.attempts_left} tries left)`
                : 'Send a code first'
            }
            error={fieldErrors(verify.error).code}
          />
          <button type="submit" className="primary" disabled={verify.isPending}>
            Verify
          </button>
          <button type="button" disabled={resend.isPending} onClick={() => resend.mutate()}>
            Send a new code
          </button>
        </form>
      )}
      <ErrorNote error={verify.error} title="Not verified." />
      <ErrorNote error={resend.error} title="No new code was sent." />
      {resend.isSuccess ? <Notice>A new code is on its way.</Notice> : null}
      <ErrorNote error={remove.error} title="The contact method was not deleted." />
      <div>
        <ConfirmButton
          label={`Delete ${words}`}
          question={`Delete ${words}? Rules that use it go with it.`}
          confirmLabel="Delete"
          onConfirm={() => remove.mutateAsync().catch(() => undefined)}
        />
      </div>
    </li>
  );
}

function AddMethodForm() {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>('email');
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const add = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/me/contact-methods', {
          body:
            kind === 'console'
              ? { kind, ...(label ? { label } : {}) }
              : { kind, address, ...(label ? { label } : {}) },
        }),
      ),
    onSuccess: async () => {
      setAddress('');
      setLabel('');
      await contactsChanged(queryClient);
    },
  });
  const errors = fieldErrors(add.error);
  const shape = KINDS[kind].address;
  const submit = () => {
    add.mutate();
  };
  return (
    <FormShell
      title="Add a contact method"
      browserChecks
      className="stack"
      onSubmit={submit}
      send={add}
      submitLabel="Add contact method"
      failed="The contact method was not added."
      done={
        add.isSuccess && !add.data.verified ? (
          <Notice>A code is on its way to {add.data.address}: enter it above to verify.</Notice>
        ) : null
      }
    >
      <SelectField
        label="Kind"
        value={kind}
        onChange={(k) => setKind(k as Kind)}
        options={Object.entries(KINDS).map(([value, k]) => ({ value, label: k.label }))}
        error={errors.kind}
      />
      {shape ? (
        <TextField
          label={shape.label}
          type={shape.type}
          value={address}
          onChange={setAddress}
          required
          hint={shape.hint}
          error={errors.address}
        />
      ) : null}
      <TextField
        label="Your name for it"
        value={label}
        onChange={setLabel}
        hint="Optional, such as work phone"
        error={errors.label}
      />
    </FormShell>
  );
}
