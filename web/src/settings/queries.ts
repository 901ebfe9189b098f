import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** The settings reads: the team, the API keys, the tenant's alerting settings and ping key, your sessions. */

export const settingsKeys = {
  users: ['users'] as const,
  keys: ['keys'] as const,
  alerting: ['alert-settings'] as const,
  pingKey: ['ping-key'] as const,
  sessions: ['sessions'] as const,
  sso: ['sso-settings'] as const,
  report: ['report-preference'] as const,
};

export const settingsQueries = {
  /** GET /v1/settings/users: the team (not for read-only keys: personal data). */
  users: () =>
    queryOptions({ queryKey: settingsKeys.users, queryFn: () => must(api.GET('/v1/settings/users')) }),
  /** GET /v1/auth/keys. */
  keys: () => queryOptions({ queryKey: settingsKeys.keys, queryFn: () => must(api.GET('/v1/auth/keys')) }),
  /** GET /v1/settings/alerting. */
  alerting: () =>
    queryOptions({ queryKey: settingsKeys.alerting, queryFn: () => must(api.GET('/v1/settings/alerting')) }),
  /** GET /v1/settings/ping-key: whether the account has one (never the key). */
  pingKey: () =>
    queryOptions({ queryKey: settingsKeys.pingKey, queryFn: () => must(api.GET('/v1/settings/ping-key')) }),
  /** GET /v1/sessions: the signed-in person's own sessions. */
  sessions: () =>
    queryOptions({ queryKey: settingsKeys.sessions, queryFn: () => must(api.GET('/v1/sessions')) }),
  /** GET /v1/settings/sso (admins): the client secret only as ********. */
  sso: () => queryOptions({ queryKey: settingsKeys.sso, queryFn: () => must(api.GET('/v1/settings/sso')) }),
  /** GET /v1/me/report: your report e-mail (off, weekly, monthly) and its time zone. */
  report: () =>
    queryOptions({ queryKey: settingsKeys.report, queryFn: () => must(api.GET('/v1/me/report')) }),
};
