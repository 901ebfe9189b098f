import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, api, type Credential, must, retryDelay, setCredential, shouldRetry } from './api/client';

/**
 * Who is signed in, and how. A person signs in with a password (or SSO): the server sets an
 * HttpOnly session cookie the console never sees, and the console keeps nothing in web storage —
 * a reload asks GET /v1/me with the cookie, and writes carry the session's CSRF token from there.
 * An operator may still sign in with an API key, kept in sessionStorage (so it leaves with the
 * tab). `canWrite` is false for a read-only key and a viewer (write controls are hidden);
 * `isAdmin` adds the admin-only controls (actions, team, keys of others).
 */

type Me = Awaited<ReturnType<typeof fetchMe>>;

const STORAGE_KEY = 'vigil.apiKey';

/** What the sign-in page says when a session ends under the person (expired, revoked, signed out elsewhere). */
const SESSION_ENDED =
  'Your session ended (it expired, was revoked or you signed out elsewhere): sign in again.';

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
  /** The API key, or the cookie session's CSRF token (the status stream authenticates with it). */
  credential: Credential;
  me: Me;
  canWrite: boolean;
  isAdmin: boolean;
  signOut(): void;
}

export interface PasswordSignIn {
  email: string;
  password: string;
  /** The one-time code (or a recovery code) of the second step. */
  totp?: string;
  /** The token of the sign-in link e-mailed after repeated wrong codes (the page's `?link=`). */
  link?: string;
}

interface SessionState {
  session: Session | undefined;
  /** Why the last session ended or key was turned away (shown on the sign-in page). */
  notice: string | undefined;
  restoring: boolean;
  /** Signs in with an API key (operators and scripts). */
  signIn(key: string): Promise<void>;
  /** POST /v1/session, then the cookie session; throws the API's refusal (a `totp` detail asks for the code). */
  signInWithPassword(input: PasswordSignIn): Promise<void>;
  /** Takes up the session a cookie the server just set carries (an accepted invitation). */
  adoptCookieSession(): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

function sessionOf(credential: Credential, me: Me, signOut: () => void): Session {
  const canWrite = !me.key.is_read_only && me.user?.role !== 'viewer';
  return { credential, me, canWrite, isAdmin: canWrite && me.user?.role === 'admin', signOut };
}

/** Holds the session; on load restores a key kept in sessionStorage, else a cookie session. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<Session | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [restoring, setRestoring] = useState(true);

  /** Forgets the session here (the server has already ended it, or is told by signOut). */
  const end = useCallback(
    (why?: string) => {
      sessionStorage.removeItem(STORAGE_KEY);
      setCredential(undefined);
      queryClient.clear();
      setSession(undefined);
      setNotice(why);
    },
    [queryClient],
  );

  /** The sign-out button: a cookie session is ended on the server (DELETE /v1/session) too. */
  const signOutCookie = useCallback(async () => {
    await api.DELETE('/v1/session').catch(() => undefined);
    end();
  }, [end]);

  const signIn = useCallback(
    async (key: string) => {
      // No sign-out on a 401 yet: a wrong key at sign-in is the form's to explain, not a lost session.
      const credential: Credential = { kind: 'key', key: key.trim() };
      setCredential(credential);
      try {
        const me = await fetchMe();
        setCredential(credential, () =>
          end('Your key stopped working (it was revoked or its user removed): sign in with another key.'),
        );
        sessionStorage.setItem(STORAGE_KEY, credential.key);
        setNotice(undefined);
        setSession(sessionOf(credential, me, () => end()));
      } catch (err) {
        setCredential(undefined);
        throw err;
      }
    },
    [end],
  );

  /** GET /v1/me with the cookie alone; false when there is no cookie session (401). */
  const takeCookie = useCallback(async (): Promise<boolean> => {
    setCredential(undefined);
    let me: Me;
    try {
      me = await fetchMe();
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return false;
      throw err;
    }
    const credential: Credential = { kind: 'cookie', csrfToken: me.csrf_token ?? '' };
    setCredential(credential, () => end(SESSION_ENDED));
    setNotice(undefined);
    setSession(sessionOf(credential, me, () => void signOutCookie()));
    return true;
  }, [end, signOutCookie]);

  const signInWithPassword = useCallback(
    async (input: PasswordSignIn) => {
      setCredential(undefined);
      await must(api.POST('/v1/session', { body: input }));
      if (!(await takeCookie()))
        throw new ApiError(401, 'UNAUTHORIZED', 'The session was not kept: allow cookies for this site.');
    },
    [takeCookie],
  );

  const adoptCookieSession = useCallback(async () => {
    if (!(await takeCookie()))
      throw new ApiError(401, 'UNAUTHORIZED', 'You are not signed in: sign in with your new password.');
  }, [takeCookie]);

  useEffect(() => {
    const kept = sessionStorage.getItem(STORAGE_KEY);
    const restore =
      kept !== null
        ? signIn(kept).catch(() =>
            end('Your saved key was not recognised any more (it may have been revoked): sign in again.'),
          )
        : takeCookie().catch(() =>
            end('The server could not be reached to restore your session: sign in again.'),
          );
    void restore.finally(() => setRestoring(false));
  }, [signIn, takeCookie, end]);

  const value = useMemo(
    () => ({ session, notice, restoring, signIn, signInWithPassword, adoptCookieSession }),
    [session, notice, restoring, signIn, signInWithPassword, adoptCookieSession],
  );
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
