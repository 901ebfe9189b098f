/** lib/auth's routes: GET /v1/me and the API keys (/v1/auth/keys), and the team (/v1/settings/users). */
export { authRoutes } from './keys/key-routes.ts';
export { teamRoutes } from './team/team-routes.ts';
