import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';

/** The status-page reads (GET /v1/status-pages) and what a change makes stale. */

export type StatusPageRecord = Schemas['StatusPage'];

const statusPageKeys = {
  all: ['status-pages'] as const,
};

/** The tenant's public status pages, by slug. */
export function useStatusPages() {
  return useQuery({
    queryKey: statusPageKeys.all,
    queryFn: async () => (await must(api.GET('/v1/status-pages'))).status_pages,
  });
}

/** After a page is created, changed or deleted. */
export async function statusPagesChanged(queryClient: QueryClient): Promise<void> {
  await queryClient.invalidateQueries({ queryKey: statusPageKeys.all });
}
