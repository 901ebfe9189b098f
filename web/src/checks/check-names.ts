import { useQuery } from '@tanstack/react-query';
import { checkQueries } from './queries';

/**
 * The account's check names by id, for pages that hold only a check id (actions, deliveries,
 * channels): people read names, not `chk_…` ids. One shared query (GET /v1/checks).
 */
export function useCheckNames(): { names: Map<string, string>; loaded: boolean } {
  const checks = useQuery(checkQueries.list());
  return {
    names: new Map((checks.data ?? []).map((c) => [c.id, c.name])),
    loaded: checks.isSuccess,
  };
}

/** A check's name for a sentence: its name; "a check" while loading; "a deleted check" once gone. */
export function checkNameIn(checks: { names: Map<string, string>; loaded: boolean }, id: string): string {
  return checks.names.get(id) ?? (checks.loaded ? 'a deleted check' : 'a check');
}
