import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** The audit log's reads (GET /v1/audit), under one root. */
const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilter, cursor: string) => [...auditKeys.all, filter, cursor] as const,
};

/** The audit log's filters (each may be empty: no filter); `since` as an ISO date-time. */
export interface AuditFilter {
  actor: string;
  target: string;
  since: string;
}

/** A page size that fits a screen or two. */
const PAGE = 50;

export const auditQueries = {
  /** One page of the audit log, newest first, with its filters. */
  page: (filter: AuditFilter, cursor: string | undefined) =>
    queryOptions({
      queryKey: auditKeys.list(filter, cursor ?? ''),
      queryFn: () =>
        must(
          api.GET('/v1/audit', {
            params: {
              query: {
                limit: PAGE,
                ...(filter.actor ? { actor: filter.actor } : {}),
                ...(filter.target ? { target: filter.target } : {}),
                ...(filter.since ? { since: filter.since } : {}),
                ...(cursor ? { cursor } : {}),
              },
            },
          }),
        ),
    }),
};
