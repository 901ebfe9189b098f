import { useSearchParams } from 'react-router';

/**
 * The page's query parameters, and a change of some of them (an empty value removes its
 * parameter; one left undefined stays as it is). A change starts from the URL as it is now, not from the parameters of the last
 * render: react-router hands the functional form of setSearchParams the parameters of the last
 * render, so a second change before the page renders again (a tab, then a filter) would drop the
 * first (remix-run/react-router#9757; seen on the status page in CI under load). A change replaces
 * the history entry unless `push` is asked for.
 */
export function useQueryParams() {
  const [params, setParams] = useSearchParams();
  const change = (values: Record<string, string | undefined>, options: { push?: boolean } = {}) =>
    setParams(
      () => {
        const next = new URLSearchParams(window.location.search);
        for (const [name, value] of Object.entries(values)) {
          if (value === undefined) continue;
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: !options.push },
    );
  return [params, change] as const;
}
