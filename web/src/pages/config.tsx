import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, useId, useState } from 'react';
import {
  type ApplyResult,
  applyDocument,
  exportYaml,
  type ImportedDocument,
  importFile,
  type Plan,
  type PlannedChange,
  planDocument,
} from '../config/api';
import { useSession } from '../session';
import { Empty, ErrorNote, Notice } from '../ui/feedback';
import { CheckboxField } from '../ui/fields';
import { Page, Section } from '../ui/page';

/**
 * Configuration as code in the console (docs/console.md "Configuration"): Export downloads the
 * tenant's document; Import reads a Vigil document, an Uptime Kuma backup or a Gatus file, shows
 * the plan (what would be created, updated field by field, deleted) and what could not be mapped,
 * and an admin applies it, seeing each object's outcome.
 */
export function ConfigPage() {
  return (
    <Page title="Configuration">
      <ExportSection />
      <ImportSection />
    </Page>
  );
}

function ExportSection() {
  const download = useMutation({
    mutationFn: async () => {
      const yaml = await exportYaml();
      const url = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'vigil.yaml';
      link.click();
      URL.revokeObjectURL(url);
    },
  });
  return (
    <Section title="Export">
      <p>
        The whole configuration as one YAML document: blueprints, entities, checks, channels, routes and the
        rest. Secrets are written as <code>$&#123;ENV_NAME&#125;</code> references, never their values.
      </p>
      <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
        {download.isPending ? 'Exporting…' : 'Download vigil.yaml'}
      </button>
      {download.isSuccess ? <p role="status">Downloaded vigil.yaml.</p> : null}
      <ErrorNote error={download.error} title="The export failed" />
    </Section>
  );
}

const OP_TITLES: Record<PlannedChange['op'], string> = {
  create: 'To create',
  update: 'To update',
  delete: 'To delete',
};

function ImportSection() {
  const session = useSession();
  const fileId = useId();
  const [doc, setDoc] = useState<ImportedDocument | undefined>();
  const [prune, setPrune] = useState(false);
  const plan = useMutation({
    mutationFn: (input: { doc: ImportedDocument; prune: boolean }) => planDocument(input.doc, input.prune),
  });
  const read = useMutation({
    mutationFn: async (file: File) => importFile(file.name, await file.text()),
    onSuccess: (imported) => {
      setDoc(imported);
      apply.reset();
      plan.mutate({ doc: imported, prune });
    },
  });
  const apply = useMutation({
    mutationFn: (input: { doc: ImportedDocument; prune: boolean }) => applyDocument(input.doc, input.prune),
  });
  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) read.mutate(file);
  };
  const changePrune = (next: boolean) => {
    setPrune(next);
    if (doc) plan.mutate({ doc, prune: next });
  };
  return (
    <Section title="Import">
      <p>
        Choose a Vigil document (YAML or JSON), an Uptime Kuma backup (.json) or a Gatus configuration
        (.yaml). Nothing changes until it is applied.
      </p>
      <div className="field">
        <label htmlFor={fileId}>Configuration file</label>
        <input id={fileId} type="file" accept=".yaml,.yml,.json" onChange={choose} />
      </div>
      <CheckboxField
        label="Also delete what the file does not have"
        hint="Prune: objects of this team that are not in the file are deleted"
        checked={prune}
        onChange={changePrune}
      />
      <ErrorNote error={read.error ?? plan.error} title="The file could not be planned" showPaths />
      {doc ? <p>Read {doc.origin}.</p> : null}
      {doc && doc.unmapped.length > 0 ? <Unmapped lines={doc.unmapped} /> : null}
      {plan.data ? <PlanView plan={plan.data} /> : null}
      {doc && plan.data && plan.data.changes.length > 0 && !apply.data ? (
        session.isAdmin ? (
          <button
            type="button"
            onClick={() => apply.mutate({ doc, prune })}
            disabled={apply.isPending || plan.isPending}
          >
            {apply.isPending ? 'Applying…' : `Apply ${plan.data.changes.length} changes`}
          </button>
        ) : (
          <Notice>Applying a configuration is for admins: an admin can apply this file.</Notice>
        )
      ) : null}
      <ErrorNote error={apply.error} title="The apply failed" showPaths />
      {apply.data ? <Results result={apply.data} /> : null}
    </Section>
  );
}

function Unmapped({ lines }: { lines: string[] }) {
  return (
    <section aria-labelledby="unmapped-title">
      <h3 id="unmapped-title">Not mapped ({lines.length})</h3>
      <ul className="unmapped">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}

function PlanView({ plan }: { plan: Plan }) {
  if (plan.changes.length === 0)
    return <Empty title="No changes">The configuration already matches the file.</Empty>;
  return (
    <section aria-labelledby="plan-title">
      <h3 id="plan-title">Plan</h3>
      {(['create', 'update', 'delete'] as const).map((op) => {
        const changes = plan.changes.filter((c) => c.op === op);
        if (changes.length === 0) return null;
        return (
          <section key={op} aria-label={`${OP_TITLES[op]} (${changes.length})`}>
            <h4>
              {OP_TITLES[op]} ({changes.length})
            </h4>
            <ul>
              {changes.map((c) => (
                <li key={`${c.kind}/${c.id}`}>
                  {kindWord(c.kind)} <code>{c.id}</code>
                  {c.fields?.length ? (
                    <ul>
                      {c.fields.map((f) => (
                        <li key={f.path}>
                          <code>{f.path}</code>: {shown(f.from)} → {shown(f.to)}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </section>
  );
}

function Results({ result }: { result: ApplyResult }) {
  const s = result.summary;
  return (
    <section aria-labelledby="results-title">
      <h3 id="results-title">Applied</h3>
      <p role="status">
        {s.created} created, {s.updated} updated, {s.deleted} deleted, {s.failed} failed.
      </p>
      <ul>
        {result.changes.map((c) => (
          <li key={`${c.op}/${c.kind}/${c.id}`}>
            {c.status === 'failed' ? 'Failed' : 'Done'}: {c.op} {kindWord(c.kind)} <code>{c.id}</code>
            {c.error ? ` (${c.error})` : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A list's object in words: `status_pages` reads "status page". */
function kindWord(kind: string): string {
  const word =
    kind === 'entities' ? 'entity' : kind === 'maintenance' ? 'maintenance window' : kind.replace(/s$/, '');
  return word.replace(/_/g, ' ');
}

/** A value of a field change as JSON; an absent one as "(none)". */
function shown(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}
