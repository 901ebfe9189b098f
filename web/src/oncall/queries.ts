import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** On-call schedules (GET /v1/schedules…): under ['schedules'], so one write refreshes every view of them. */

const scheduleKeys = {
  all: ['schedules'] as const,
  list: () => [...scheduleKeys.all, 'list'] as const,
  one: (id: string) => [...scheduleKeys.all, 'one', id] as const,
  shifts: (id: string, from: string, to: string) => [...scheduleKeys.all, 'shifts', id, from, to] as const,
};

export const scheduleQueries = {
  /** Every schedule of the account, oldest first. */
  list: () =>
    queryOptions({
      queryKey: scheduleKeys.list(),
      queryFn: async () => (await must(api.GET('/v1/schedules'))).schedules,
    }),
  /** One schedule with its layers and overrides. */
  one: (id: string) =>
    queryOptions({
      queryKey: scheduleKeys.one(id),
      queryFn: () => must(api.GET('/v1/schedules/{id}', { params: { path: { id } } })),
    }),
  /** The final shifts and each layer's own in [from, to). */
  shifts: (id: string, from: string, to: string) =>
    queryOptions({
      queryKey: scheduleKeys.shifts(id, from, to),
      queryFn: async () => {
        const answer = await must(
          api.GET('/v1/schedules/{id}/oncall', { params: { path: { id }, query: { from, to } } }),
        );
        // The route answers `?from=&to=` with shifts (the other shape is `?at=`'s).
        if (!('shifts' in answer)) throw new Error('The server answered who is on call now, not the shifts.');
        return answer;
      },
    }),
};

/** After a schedule or an override is written: every schedule view reads again. */
export function schedulesChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
}
