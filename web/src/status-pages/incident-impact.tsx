import { SelectField } from '../ui/fields';
import { type ImpactLevel, LEVEL_WORDS, LEVELS } from './incident-words';
import type { PageIncident, StatusPageRecord } from './queries';

/**
 * An incident's impact per component: one choice for each entity the page shows, by its name
 * (not affected, or one of the three levels). The API's errors about an entry show at its entity.
 */

export type Impact = PageIncident['impact'];

const NONE = '';
const OPTIONS = [
  { value: NONE, label: 'Not affected' },
  ...LEVELS.map((level) => ({ value: level, label: LEVEL_WORDS[level] })),
];

export function ImpactFields({
  page,
  impact,
  onChange,
  errs,
}: {
  page: StatusPageRecord;
  impact: Impact;
  onChange: (impact: Impact) => void;
  errs: Record<string, string | undefined>;
}) {
  const levelOf = (id: string) => impact.find((i) => i.entity_id === id)?.level ?? NONE;
  const errorAt = (id: string) => {
    const i = impact.findIndex((x) => x.entity_id === id);
    return i < 0 ? undefined : (errs[`impact.${i}.entity_id`] ?? errs[`impact.${i}.level`]);
  };
  // Kept in the page's order, so the impact reads as the page lists its entities.
  const set = (id: string, level: string) =>
    onChange(
      page.entities.flatMap((e) => {
        const chosen = e.id === id ? level : levelOf(e.id);
        return chosen === NONE ? [] : [{ entity_id: e.id, level: chosen as ImpactLevel }];
      }),
    );
  return (
    <fieldset className="incident-impact">
      <legend>Impact on the page’s entities</legend>
      {page.entities.length === 0 ? (
        <p className="muted">The page shows no entity: the incident names no impact.</p>
      ) : (
        <div className="form-grid">
          {page.entities.map((e) => (
            <SelectField
              key={e.id}
              label={`Impact on ${e.name}`}
              value={levelOf(e.id)}
              onChange={(level) => set(e.id, level)}
              options={OPTIONS}
              error={errorAt(e.id)}
            />
          ))}
        </div>
      )}
      {errs.impact ? <p className="field-error">{errs.impact}</p> : null}
    </fieldset>
  );
}
