import type { CheckTypeForm } from './form';

/**
 * Outside alerts: an integration's open alerts on one entity, made by the integration (never in
 * the form: the type select leaves it out), shown with the entity's checks.
 */
export const outsideForm: CheckTypeForm<'outside'> = {
  label: 'Outside alerts (from an integration)',
  kind: 'outside',
  nameExample: 'The integration’s name',
  fields: [],
  tls: false,
  target: () => 'outside alerts',
  rows: (check) => [['Integration', check.config.integration_id]],
};
