import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import type { operations } from '../api/schema';
import { ErrorNote, Notice } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Section } from '../ui/page';
import { settingsKeys, settingsQueries } from './queries';

type Frequency = 'off' | 'weekly' | 'monthly';
/** The API's list of zones (its document names each one). */
type Zone = operations['setReportPreference']['requestBody']['content']['application/json']['time_zone'];

const FREQUENCIES = [
  { value: 'off', label: 'Off' },
  { value: 'weekly', label: 'Weekly (Mondays)' },
  { value: 'monthly', label: 'Monthly (the 1st)' },
] as const;

/** The zones the browser knows, UTC first: the API accepts the same canonical names. */
const ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** Your report e-mail: uptime, incidents and the slowest checks of the last week or month. */
export function ReportsSection() {
  const queryClient = useQueryClient();
  const current = useQuery(settingsQueries.report());
  const [report, setReport] = useState<Frequency>('off');
  const [zone, setZone] = useState<Zone>('UTC');
  useEffect(() => {
    if (!current.data) return;
    setReport(current.data.report);
    setZone(current.data.time_zone);
  }, [current.data]);
  const save = useMutation({
    mutationFn: () => must(api.PUT('/v1/me/report', { body: { report, time_zone: zone } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.report }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const errs = fieldErrors(save.error);
  return (
    <Section title="Report e-mail">
      <p className="muted">
        A summary to your address after each week or month: uptime by blueprint and status page, the incidents
        and how long they lasted, the mean time to resolve, and the slowest checks.
      </p>
      <ErrorNote error={current.error} title="Your report setting could not be read." />
      {/* The form waits for the stored setting, so a choice made meanwhile is not overwritten by it. */}
      {!current.data ? (
        current.error ? null : (
          <p className="muted">Loading your report setting…</p>
        )
      ) : (
        <form onSubmit={submit}>
          <SelectField
            label="Send me a report"
            name="report"
            value={report}
            onChange={(v) => setReport(v as Frequency)}
            options={FREQUENCIES}
            error={errs.report}
          />
          <SelectField
            label="Time zone"
            name="time_zone"
            value={zone}
            // The options are the browser's own zone names; the API answers a field error for one it does not know.
            onChange={(v) => setZone(v as Zone)}
            options={ZONES}
            error={errs.time_zone}
            hint="Where your week or month starts at midnight."
          />
          {save.isSuccess ? <Notice>Your report setting is saved.</Notice> : null}
          <ErrorNote error={save.error} title="The report setting was not saved." />
          <button type="submit" className="primary" disabled={save.isPending || !current.data}>
            Save report setting
          </button>
        </form>
      )}
    </Section>
  );
}
