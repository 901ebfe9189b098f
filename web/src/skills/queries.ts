import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** The skill reads (GET /v1/skills) and what a change makes stale. */

const skillKeys = {
  all: ['skills'] as const,
};

export const skillQueries = {
  list: () => queryOptions({ queryKey: skillKeys.all, queryFn: () => must(api.GET('/v1/skills')) }),
};

/** After a skill is registered, enabled, disabled or removed. */
export async function skillsChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: skillKeys.all });
}
