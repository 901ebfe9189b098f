import { defineMount } from '../platform/feature.ts';
import { convertRoutes } from './convert-route.ts';

/** The importers' conversion route (another tool's export to a configuration document). */
export const importersMount = defineMount({ name: 'importers', routes: (_: object) => convertRoutes() });
