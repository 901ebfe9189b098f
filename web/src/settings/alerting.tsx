import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { useSession } from '../session';
import { ErrorNote, Loading, Notice } from '../ui/feedback';
import { TextField } from '../ui/fields';
import { FormShell } from '../ui/form-shell';
import { Section } from '../ui/page';
import { settingsKeys, settingsQueries } from './queries';

/**
 * The storm fold's setting (`alert_fold_per_minute`): how many alerts one channel is sent alone in
 * any minute before the rest fold into one digest per group per minute. Admins change it.
 */
export function AlertingSection() {
  const { isAdmin: admin } = useSession();
  const queryClient = useQueryClient();
  const settings = useQuery(settingsQueries.alerting());
  const [value, setValue] = useState('');
  useEffect(() => {
    if (settings.data) setValue(String(settings.data.alert_fold_per_minute));
  }, [settings.data]);
  const save = useMutation({
    mutationFn: () =>
      must(api.PUT('/v1/settings/alerting', { body: { alert_fold_per_minute: Number(value) } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.alerting }),
  });
  const errs = fieldErrors(save.error);
  return (
    <Section title="Alerting">
      <ErrorNote error={settings.error} title="The alerting settings could not be read." />
      {settings.isPending ? <Loading what="alerting settings" /> : null}
      {settings.data && !admin ? (
        <p>
          Alerts per channel per minute: <strong>{settings.data.alert_fold_per_minute}</strong>. Past this, a
          channel's alerts fold into one digest per group per minute; admins change it.
        </p>
      ) : null}
      {settings.data && admin ? (
        <FormShell
          title="Alerting settings"
          heading={false}
          send={save}
          submitLabel="Save alerting settings"
          failed="The alerting settings were not saved."
          done={save.isSuccess ? <Notice>Saved.</Notice> : null}
        >
          <TextField
            label="Alerts per channel per minute"
            type="number"
            value={value}
            onChange={setValue}
            hint="1 to 1000: past this, a channel's alerts fold into one digest per group per minute (the storm fold)"
            error={errs.alert_fold_per_minute}
          />
        </FormShell>
      ) : null}
    </Section>
  );
}
