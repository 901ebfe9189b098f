import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, must, type Schemas } from '../api/client';

/** The search reads (GET /v1/search): the header's search box and the entity pickers. */

export type SearchResult = Schemas['SearchResult'];
export type SearchKind = SearchResult['kind'];

export interface SearchRequest {
  q: string;
  kind?: SearchKind | undefined;
  limit?: number | undefined;
}

const searchKeys = {
  all: ['search'] as const,
  results: (request: SearchRequest) =>
    [...searchKeys.all, { q: request.q, kind: request.kind ?? '', limit: request.limit ?? 0 }] as const,
};

export const searchQueries = {
  /** What a text finds (nothing is asked for an empty text). */
  results: (request: SearchRequest) =>
    queryOptions({
      queryKey: searchKeys.results(request),
      queryFn: async () =>
        (
          await must(
            api.GET('/v1/search', {
              params: {
                query: {
                  q: request.q,
                  ...(request.kind ? { kind: request.kind } : {}),
                  ...(request.limit ? { limit: request.limit } : {}),
                },
              },
            }),
          )
        ).results,
      enabled: request.q.trim() !== '',
      // A name found a moment ago is still there: typing back and forth asks the server once.
      staleTime: 15_000,
    }),
};

/** Milliseconds the text rests before it is sent: one request per pause, not per keystroke. */
const TYPING_PAUSE_MS = 150;

/** What `text` finds, asked once typing pauses; the previous answer stays shown meanwhile. */
export function useSearch(text: string, options: Omit<SearchRequest, 'q'> = {}) {
  const [q, setQ] = useState(text.trim());
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const query = useQuery({ ...searchQueries.results({ ...options, q }), placeholderData: keepPreviousData });
  return { q, settled: q === text.trim(), ...query };
}
