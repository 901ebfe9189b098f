import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must } from '../api/client';
import { CopyBlock, ShownOnce } from '../ui/bits';
import { ErrorNote } from '../ui/feedback';
import { SelectField, TextField } from '../ui/fields';
import { integrationKeys } from './queries';
import { senderSnippet } from './snippets';

const KINDS = [
  { value: 'alertmanager', label: 'Prometheus Alertmanager' },
  { value: 'pagerduty', label: 'PagerDuty Events API v2' },
  { value: 'grafana', label: 'Grafana alerting' },
  { value: 'cloudwatch', label: 'CloudWatch (SNS)' },
  { value: 'generic', label: 'Any JSON webhook' },
] as const;
type Kind = (typeof KINDS)[number]['value'];

/** Made just now: its URL and token, shown once. */
interface Fresh {
  name: string;
  kind: Kind;
  url: string;
  token: string;
}

/**
 * Makes an integration (admins): its name, kind and one entity rule (`blueprint/slug`, labels filled
 * in); a JSON webhook also names where its key, status and summary are. The ingest URL with its
 * token, and the sender's snippet, are shown here once.
 */
export function IntegrationForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<Kind>('alertmanager');
  const [entity, setEntity] = useState('');
  const [paths, setPaths] = useState({ key: '$.id', status: '$.status', summary: '$.summary' });
  const [fresh, setFresh] = useState<Fresh>();
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/v1/integrations', {
          body: {
            name: name.trim(),
            kind,
            entity_rules: entity.trim() ? [{ match: {}, entity: entity.trim() }] : [],
            ...(kind === 'generic' ? { generic: paths } : {}),
          } as never,
        }),
      ),
    onSuccess: (made) => {
      setFresh({ name: made.name, kind, url: made.ingest_url ?? '', token: made.token ?? '' });
      setName('');
      void queryClient.invalidateQueries({ queryKey: integrationKeys.all });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFresh(undefined);
    create.mutate();
  };
  const errs = fieldErrors(create.error);
  return (
    <>
      {fresh ? (
        <ShownOnce onDone={() => setFresh(undefined)}>
          <p>
            <strong>The ingest URL of “{fresh.name}”.</strong> Copy it now: its token will not be shown again
            (a new one can be made, which stops this one).
          </p>
          <CopyBlock text={fresh.url} label="Ingest URL" />
          <CopyBlock text={senderSnippet(fresh.kind, fresh.url, fresh.token)} label="Sender configuration" />
        </ShownOnce>
      ) : null}
      <form className="stack" onSubmit={submit} aria-label="Create an integration">
        <div className="row">
          <TextField label="Name" value={name} onChange={setName} error={errs.name} required />
          <SelectField
            label="Kind"
            value={kind}
            onChange={(v) => setKind((KINDS.find((k) => k.value === v)?.value ?? 'alertmanager') as Kind)}
            options={KINDS}
            error={errs.kind}
          />
        </div>
        <TextField
          label="Entity"
          value={entity}
          onChange={setEntity}
          error={errs['entity_rules.0.entity']}
          hint="Where each alert lands: blueprint/slug, labels filled in, e.g. service/{{labels.service}}. Blank, or naming no entity: the integration’s own entity."
        />
        {kind === 'generic' ? (
          <div className="row">
            {(['key', 'status', 'summary'] as const).map((field) => (
              <TextField
                key={field}
                label={`${field[0]?.toUpperCase()}${field.slice(1)} path`}
                value={paths[field]}
                onChange={(v) => setPaths({ ...paths, [field]: v })}
                error={errs[`generic.${field}`]}
              />
            ))}
          </div>
        ) : null}
        <div>
          <button type="submit" className="primary" disabled={create.isPending || name.trim() === ''}>
            Create integration
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} title="The integration was not created." />
    </>
  );
}
