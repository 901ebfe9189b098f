import { useQuery } from '@tanstack/react-query';
import { api, must, type Schemas } from '../api/client';
import { channelKeys } from './queries';

export type TenantChannel = Schemas['NotificationChannel'] & { name: string; check_id: null };

/**
 * The tenant's shared channels: the tenant channels of GET /v1/notify/channels (check_id null),
 * read page by page (the list holds the checks' own channels too).
 */
export function useTenantChannels() {
  return useQuery({
    queryKey: channelKeys.shared(),
    queryFn: async () => {
      const shared: TenantChannel[] = [];
      let cursor: string | null | undefined;
      do {
        const page = await must(
          api.GET('/v1/notify/channels', {
            params: { query: { limit: 200, ...(cursor ? { cursor } : {}) } },
          }),
        );
        for (const c of page.channels) if (c.check_id === null) shared.push(c as TenantChannel);
        cursor = page.next_cursor;
      } while (cursor);
      return shared.sort((a, b) => a.name.localeCompare(b.name));
    },
  });
}
