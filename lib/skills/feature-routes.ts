import type { Route } from '../http/types.ts';
import { type Composed, defineMount } from '../platform/feature.ts';
import { skillsKind } from './config-kind.ts';

/** Skills' routes, as ./compose.ts builds them, and the skills of the configuration document. */
export const skillsMount = defineMount({
  name: 'skills',
  routes: ({ skills }: Composed<'skills', Route>) => skills.routes,
  configKinds: [skillsKind],
});
