import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, fieldErrors, must, type Schemas } from '../api/client';
import { useSession } from '../session';
import { ErrorNote } from '../ui/feedback';
import { SelectField } from '../ui/fields';
import { Section } from '../ui/page';
import { entitiesChanged } from './queries';

type Entity = Schemas['Entity'];

/** What each state rule means, in the words the page shows. */
const RULE_WORDS: Record<Entity['effective_state_rule'], string> = {
  worst: 'the worst check wins: down when any check is down',
  all_down: 'down only when every check is down (redundant replicas)',
};

/**
 * An entity's state rule (issue 35): how its checks make its state. Shows the rule in force and
 * where it comes from; a writer may give the entity its own or let it follow its blueprint. A
 * change re-aggregates the entity at once (its state may move, with a transition).
 */
export function StateRuleSection({ entity }: { entity: Entity }) {
  const { canWrite } = useSession();
  const queryClient = useQueryClient();
  const own = entity.state_rule ?? '';
  const [choice, setChoice] = useState<string>(own);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/v1/blueprints/{blueprint_slug}/entities/{slug}', {
          params: { path: { blueprint_slug: entity.blueprint_slug, slug: entity.slug } },
          body: { state_rule: choice === '' ? null : (choice as Entity['effective_state_rule']) },
        }),
      ),
    onSuccess: async () => {
      await entitiesChanged(queryClient, entity.blueprint_slug);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const source = entity.state_rule === null ? 'from its blueprint' : 'its own';
  return (
    <Section title="State rule">
      <p>
        <strong>{entity.effective_state_rule}</strong> ({source}): {RULE_WORDS[entity.effective_state_rule]}.
      </p>
      {canWrite ? (
        <form aria-label="State rule" onSubmit={submit} noValidate className="row">
          <SelectField
            label="Rule"
            value={choice}
            onChange={setChoice}
            error={fieldErrors(save.error).state_rule}
            options={[
              { value: '', label: "the blueprint's" },
              { value: 'worst', label: 'worst: any check down' },
              { value: 'all_down', label: 'all_down: every check down' },
            ]}
          />
          <button type="submit" disabled={save.isPending || choice === own}>
            Save state rule
          </button>
        </form>
      ) : null}
      <ErrorNote error={save.error} title="The state rule was not saved." />
    </Section>
  );
}
