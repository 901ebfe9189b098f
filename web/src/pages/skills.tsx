import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ConnectMcp } from '../skills/connect';
import { skillQueries, skillsChanged } from '../skills/queries';
import { RegisterSkillForm } from '../skills/register-form';
import { BuiltinToolsets } from '../skills/toolsets';
import { ConfirmButton } from '../ui/confirm';
import { Empty, ErrorNote, Loading } from '../ui/feedback';
import { Page, Section } from '../ui/page';
import { Table } from '../ui/table';

/** Skills (bundles of MCP tools): list, register, enable or disable, delete; and how to connect. */
export function SkillsPage() {
  const { isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [registering, setRegistering] = useState(false);
  const q = useQuery(skillQueries.list());
  return (
    <Page
      title="Skills & MCP"
      actions={
        isAdmin && !registering ? (
          <button type="button" className="primary" onClick={() => setRegistering(true)}>
            Register a skill
          </button>
        ) : null
      }
    >
      {isAdmin && registering ? (
        <Section
          title="Register a skill"
          actions={
            <button type="button" onClick={() => setRegistering(false)}>
              Cancel
            </button>
          }
        >
          <RegisterSkillForm
            onDone={() => {
              setRegistering(false);
              void skillsChanged(queryClient);
            }}
          />
        </Section>
      ) : null}
      <BuiltinToolsets skills={q.data} isAdmin={isAdmin} />
      <Section title="Skills">
        {q.isLoading ? <Loading what="skills" /> : null}
        <ErrorNote error={q.error} title="The skills could not be loaded." />
        {q.data && q.data.length === 0 ? (
          <Empty title="No skills registered.">
            MCP clients see the tools of enabled skills.{' '}
            {isAdmin
              ? 'Register one with its manifest (docs/mcp.md).'
              : 'An admin of your account can register them.'}
          </Empty>
        ) : null}
        {q.data?.map((s) => (
          <SkillCard key={s.id} skill={s} canManage={isAdmin} />
        ))}
      </Section>
      <ConnectMcp />
    </Page>
  );
}

function SkillCard({ skill, canManage }: { skill: Schemas['Skill']; canManage: boolean }) {
  const queryClient = useQueryClient();
  const done = () => skillsChanged(queryClient);
  const toggle = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/skills/{slug}', {
          params: { path: { slug: skill.slug } },
          body: { enabled: !skill.enabled },
        }),
      ),
    onSuccess: done,
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/v1/skills/{slug}', { params: { path: { slug: skill.slug } } })),
    onSuccess: done,
  });
  return (
    <article className="skill" aria-labelledby={`skill-${skill.id}`}>
      <header className="row skill-head">
        <h3 id={`skill-${skill.id}`}>
          {skill.name}{' '}
          <span className="muted">
            ({skill.slug} {skill.version})
          </span>
        </h3>
        <span className={`badge ${skill.enabled ? 'state-up' : 'state-unknown'}`}>
          {skill.enabled ? 'enabled' : 'disabled'}
        </span>
        {canManage ? (
          <div className="row">
            <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
              {skill.enabled ? 'Disable' : 'Enable'} <span className="sr-only">{skill.name}</span>
            </button>
            <ConfirmButton
              label={`Delete ${skill.name}`}
              question={`Delete the skill “${skill.name}”? MCP clients lose its tools.`}
              confirmLabel="Delete skill"
              onConfirm={() => remove.mutateAsync().catch(() => undefined)}
            />
          </div>
        ) : null}
      </header>
      {skill.description ? <p>{skill.description}</p> : null}
      <ErrorNote error={toggle.error} title="The skill was not changed." />
      <ErrorNote error={remove.error} title="The skill was not deleted." />
      <Table
        label="Skills"
        caption={<>Tools of {skill.name}</>}
        rows={skill.tools}
        rowKey={(t) => t.name}
        columns={[
          { header: 'Tool', cell: (t) => <code>{t.name}</code> },
          { header: 'What it does', cell: (t) => t.description },
          {
            header: 'Kind',
            // A runbook tool runs its action, so it is never read-only, whatever its manifest says.
            cell: (t) => (
              <>
                {t.annotations?.readOnlyHint && !t.action_id ? 'read-only' : 'changes things'}
                {t.action_id ? (
                  <>
                    {' '}
                    · runs <code>{t.action_id}</code>
                  </>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </article>
  );
}
