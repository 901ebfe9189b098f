import * as z from 'zod';
import type { OutsideCheckType } from '../contract/definition.ts';

const config = z.object({
  integration_id: z.string().meta({ description: 'The integration whose alerts this check stands for' }),
});
export type OutsideConfig = z.output<typeof config>;

/**
 * outside: an integration's open alerts on one entity, as one check (DECISIONS.md "Outside alerts
 * (wave 6)"): the worst open alert's severity is its state. Made by the integration's first alert
 * on the entity (lib/integrations), never probed, and refused by every create path.
 */
export const outsideCheckType = {
  kind: 'outside',
  label: 'Outside alerts',
  input: z.never(),
  stored: config,
  tls: false,
  defaultName: (check) => `Outside alerts on ${check.entity_slug}`,
  targetLabel: () => 'outside alerts',
} satisfies OutsideCheckType<OutsideConfig>;
