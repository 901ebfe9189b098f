import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, must } from '../api/client';

/** Your contact methods and notification rules (GET /v1/me/…): under ['contacts']; a method's delete drops its rules too. */

const contactKeys = {
  all: ['contacts'] as const,
  methods: () => [...contactKeys.all, 'methods'] as const,
  rules: () => [...contactKeys.all, 'rules'] as const,
};

export const contactQueries = {
  methods: () =>
    queryOptions({
      queryKey: contactKeys.methods(),
      queryFn: async () => (await must(api.GET('/v1/me/contact-methods'))).contact_methods,
    }),
  rules: () =>
    queryOptions({
      queryKey: contactKeys.rules(),
      queryFn: () => must(api.GET('/v1/me/notification-rules')),
    }),
};

/** After a method or the rules change: both read again. */
export function contactsChanged(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: contactKeys.all });
}
