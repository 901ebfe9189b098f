import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { entityKeys, statusKeys } from '../catalog/queries';
import { checkKeys } from '../checks/queries';
import { useSession } from '../session';
import { rememberEntity } from './entity-names';
import { shareStatusStream } from './shared-stream';
import type { StreamState } from './status-stream';

/** The resources a state change can make stale (the web brief's list); each is a key root. */
const LIVE_KEYS = [statusKeys.all, entityKeys.all, checkKeys.all];

/** Changes arriving together (a replay after a reconnect) refresh the queries once. */
const COALESCE_MS = 100;

/**
 * Follows the status stream for the signed-in session (one stream shared by the browser's tabs of
 * the same key or session: shared-stream.ts) and refreshes the live queries on each state change; returns
 * the connection state for the header's indicator. Leaves on sign-out and unmount; a 401 signs
 * the session out (the key was revoked).
 */
export function useStatusStream(): StreamState {
  const { credential, signOut } = useSession();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        for (const queryKey of LIVE_KEYS) void queryClient.invalidateQueries({ queryKey });
      }, COALESCE_MS);
    };
    const stop = shareStatusStream({
      credential,
      onState: setState,
      onChange(event) {
        rememberEntity(event.entity_id, { name: event.entity_name });
        refresh();
      },
      onResync: refresh,
      onUnauthorized() {
        // Asking /v1/me lets the API client's 401 handler sign out with its notice; if the key
        // works there after all, sign out anyway, since the stream cannot follow it.
        void api.GET('/v1/me').then(({ response }) => {
          if (response.status !== 401) signOut();
        });
      },
    });
    return () => {
      stop();
      if (timer) clearTimeout(timer);
    };
  }, [credential, signOut, queryClient]);

  return state;
}
