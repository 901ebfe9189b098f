import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { Empty, ErrorNote, Notice } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { Section } from '../ui/page';
import { methodWords } from './contact-methods';
import { contactQueries, contactsChanged } from './queries';

interface RuleRow {
  minutes: string;
  contact_method_id: string;
}

/**
 * Your notification rules (issue 55 item 2): when a page starts, which verified contact method is
 * used after how many minutes ("at once by Pushover; after 2 min by SMS"). Saved as one list.
 */
export function NotificationRulesSection() {
  const queryClient = useQueryClient();
  const methods = useQuery(contactQueries.methods());
  const rules = useQuery(contactQueries.rules());
  const [rows, setRows] = useState<RuleRow[]>([]);
  useEffect(() => {
    if (!rules.data) return;
    setRows(
      rules.data.rules.map((r) => ({
        minutes: String(r.after_seconds / 60),
        contact_method_id: r.contact_method_id,
      })),
    );
  }, [rules.data]);
  const verified = (methods.data ?? []).filter((m) => m.verified);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/me/notification-rules', {
          body: {
            rules: rows.map((r) => ({
              after_seconds: Math.round(Number(r.minutes) * 60),
              contact_method_id: r.contact_method_id,
            })),
          },
        }),
      ),
    onSuccess: () => contactsChanged(queryClient),
  });
  const errors = fieldErrors(save.error);
  const setRow = (i: number, patch: Partial<RuleRow>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const options = verified.map((m) => ({ value: m.id, label: methodWords(m) }));
  return (
    <Section title="Notification rules">
      <p className="muted">
        When you are paged: which contact method, how many minutes after the page starts (0: at once).
      </p>
      <ErrorNote error={rules.error} title="Your notification rules could not be loaded." />
      {verified.length === 0 ? (
        <Empty title="No verified contact method yet.">
          Rules use verified contact methods: verify one above first.
        </Empty>
      ) : (
        <form onSubmit={submit} className="stack" aria-label="Notification rules">
          {rows.length === 0 ? <p className="muted">No rules: add one.</p> : null}
          <ol className="rule-list">
            {rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a rule is its place in the list
              <li key={i} className="row">
                <TextField
                  label={`Rule ${i + 1}: after (minutes)`}
                  type="number"
                  value={row.minutes}
                  onChange={(minutes) => setRow(i, { minutes })}
                  error={errors[`rules.${i}.after_seconds`]}
                />
                <SelectField
                  label={`Rule ${i + 1}: contact method`}
                  value={row.contact_method_id}
                  onChange={(contact_method_id) => setRow(i, { contact_method_id })}
                  options={options}
                  error={errors[`rules.${i}.contact_method_id`]}
                />
                <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                  Remove rule {i + 1}
                </button>
              </li>
            ))}
          </ol>
          <div className="row">
            <button
              type="button"
              onClick={() =>
                setRows([
                  ...rows,
                  { minutes: rows.length === 0 ? '0' : '5', contact_method_id: options[0]?.value ?? '' },
                ])
              }
            >
              Add rule
            </button>
            <button type="submit" className="primary" disabled={save.isPending}>
              Save rules
            </button>
          </div>
          <ErrorNote error={save.error} title="The rules were not saved." />
          {save.isSuccess ? <Notice>Rules saved.</Notice> : null}
        </form>
      )}
    </Section>
  );
}
