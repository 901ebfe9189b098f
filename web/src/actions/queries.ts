import { queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/**
 * The action reads. An action, the list and its executions share the ['actions'] root: a run, an
 * edit or a delete refreshes what was read of it by that root or by the action's own key.
 */

export const actionKeys = {
  all: ['actions'] as const,
  list: () => [...actionKeys.all, 'list'] as const,
  detail: (id: string) => [...actionKeys.all, 'detail', id] as const,
  executions: (id: string) => [...actionKeys.all, 'executions', id] as const,
  executionLogs: (execId: string) => [...actionKeys.all, 'execution-logs', execId] as const,
};

export const actionQueries = {
  /** GET /v1/actions. */
  list: () => queryOptions({ queryKey: actionKeys.list(), queryFn: () => must(api.GET('/v1/actions')) }),
  /** GET /v1/actions/{id}. */
  detail: (id: string) =>
    queryOptions({
      queryKey: actionKeys.detail(id),
      queryFn: () => must(api.GET('/v1/actions/{id}', { params: { path: { id } } })),
    }),
  /** GET /v1/actions/executions/{exec_id}/logs. */
  executionLogs: (execId: string) =>
    queryOptions({
      queryKey: actionKeys.executionLogs(execId),
      queryFn: () =>
        must(api.GET('/v1/actions/executions/{exec_id}/logs', { params: { path: { exec_id: execId } } })),
    }),
};
