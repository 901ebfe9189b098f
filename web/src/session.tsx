import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, api, must, retryDelay, setApiKey, shouldRetry } from './api/client';

/**
 * Who is signed in: the API key (kept in sessionStorage, so it leaves with the tab) and what
 * GET /v1/me says about it. `canWrite` is false for a read-only key (write controls are hidden);
 * `isAdmin` adds the admin-only controls (actions, team, keys of others).
 */

export type Me = Awaited<ReturnType<typeof fetchMe>>;

const STORAGE_KEY = 'vigil.apiKey';

/** GET /v1/me, waiting out a 429 as the API asks (a reload while over the rate limit must not sign out). */
async function fetchMe() {
  for (let failures = 0; ; failures += 1) {
    try {
      return await must(api.GET('/v1/me'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 429) || !shouldRetry(failures, err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(failures, err)));
    }
  }
}

export interface Session {
  key: string;
  me: Me;
  canWrite: boolean;
  isAdmin: boolean;
  signOut(): void;
}

interface SessionState {
  session: Session | undefined;
  /** Why the last key was turned away (shown on the sign-in page). */
  notice: string | undefined;
  restoring: boolean;
  signIn(key: string): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

/** Holds the session; restores a key kept in sessionStorage on load. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [restoring, setRestoring] = useState(() => sessionStorage.getItem(STORAGE_KEY) !== null);

  const signOut = useCallback(
    (why?: string) => {
      sessionStorage.removeItem(STORAGE_KEY);
      setApiKey(undefined);
      queryClient.clear();
      setSession(undefined);
      setNotice(why);
    },
    [queryClient],
  );

  const signIn = useCallback(
    async (key: string) => {
      // No sign-out on a 401 yet: a wrong key at sign-in is the form's to explain, not a lost session.
      setApiKey(key.trim());
      try {
        const me = await fetchMe();
        setApiKey(key.trim(), () =>
          signOut('Your key stopped working (it was revoked or its user removed): sign in with another key.'),
        );
        sessionStorage.setItem(STORAGE_KEY, key.trim());
        setNotice(undefined);
        setSession({
          key: key.trim(),
          me,
          canWrite: !me.key.is_read_only,
          isAdmin: !me.key.is_read_only && me.user?.role === 'admin',
          signOut: () => signOut(),
        });
      } catch (err) {
        setApiKey(undefined);
        throw err;
      }
    },
    [signOut],
  );

  useEffect(() => {
    const kept = sessionStorage.getItem(STORAGE_KEY);
    if (kept === null) return;
    signIn(kept)
      .catch(() =>
        signOut('Your saved key was not recognised any more (it may have been revoked): sign in again.'),
      )
      .finally(() => setRestoring(false));
  }, [signIn, signOut]);

  const value = useMemo(() => ({ session, notice, restoring, signIn }), [session, notice, restoring, signIn]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The session state (signed in or not). */
export function useSessionState(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSessionState outside SessionProvider');
  return state;
}

/** The signed-in session; only inside the signed-in part of the app. */
export function useSession(): Session {
  const { session } = useSessionState();
  if (!session) throw new Error('useSession while signed out');
  return session;
}
