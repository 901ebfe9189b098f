import type { Credential } from '../api/client';
import { followStatusStream, type StateChangeEvent, type StreamState } from './status-stream';

/**
 * One status stream per browser and API key, shared by every console tab signed in with that key.
 * A stream per page held one of the six connections a browser opens to a host over HTTP/1.1 and
 * one of the server's open streams per key (VIGIL_STREAMS_PER_KEY, 5): six tabs, or a few quick
 * page loads, froze the console.
 *
 * How: the tabs elect a leader with the Web Locks API (`navigator.locks`, one lock per key); the
 * leader follows the stream and passes every event to the other tabs over a BroadcastChannel. Why
 * not a SharedWorker: the browser releases a lock the moment its holder's page goes away (closed,
 * reloaded, navigated, crashed), so the next tab in the lock's queue takes over with no heartbeat
 * and no unload handler, whereas a SharedWorker cannot tell when a tab's port is gone, and Chrome
 * on Android has none. The new leader resumes with the Last-Event-ID the tabs last heard, so the
 * server replays what fell between.
 *
 * A tab hidden for HIDDEN_CLOSE_MS leaves the election (it releases the lock, or stops waiting for
 * it): when every tab is hidden that long, nobody leads and the stream is closed; the first tab
 * shown again leads and resumes it with Last-Event-ID.
 *
 * The stream names this browser (X-Vigil-Stream-Client), so the server lets the next leader's
 * stream replace the last one's at once, even where it cannot tell that the last leader's page has
 * gone (a Lambda function URL never hears of it). With a key the name is kept in localStorage; a
 * cookie session keeps nothing in web storage, so its name is derived from the session's CSRF
 * token, which every tab of the browser's session reads from GET /v1/me.
 *
 * Web Locks exist only in secure contexts (https, or http on localhost): a console opened over
 * plain http at another address has no lock to share, so each of its tabs follows a stream of its
 * own, closed while that tab is hidden.
 */

/** How long every tab must have been hidden before the stream closes. */
const HIDDEN_CLOSE_MS = 60_000;

export interface SharedStreamOptions {
  credential: Credential;
  onChange(event: StateChangeEvent): void;
  onState(state: StreamState): void;
  onUnauthorized(): void;
  onResync(): void;
}

/** What the tabs of one key tell each other. */
type TabMessage =
  | { type: 'hello' }
  | { type: 'state'; state: StreamState; id?: string | undefined }
  | { type: 'position'; id: string }
  | { type: 'change'; event: StateChangeEvent }
  | { type: 'resync' }
  | { type: 'unauthorized' };

/** A short hash of `text`: the key or CSRF token itself is never a name the browser keeps. */
async function hashOf(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest).slice(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The lock and channel name of a credential's tabs. */
async function nameOf(credential: Credential): Promise<string> {
  const secret = credential.kind === 'key' ? credential.key : `session:${credential.csrfToken}`;
  return `vigil.status-stream.${await hashOf(secret)}`;
}

const CLIENT_STORAGE_KEY = 'vigil.streamClient';

/** This browser's name for its stream: one for all its tabs (not a secret; any key may use it). */
async function browserClient(credential: Credential): Promise<string> {
  if (credential.kind === 'cookie') return `session-${await hashOf(`client:${credential.csrfToken}`)}`;
  let client = localStorage.getItem(CLIENT_STORAGE_KEY);
  if (!client) {
    client = crypto.randomUUID();
    localStorage.setItem(CLIENT_STORAGE_KEY, client);
  }
  return client;
}

/** Whether this browser can share the stream between tabs here (see the module comment). */
function canShare(): boolean {
  return typeof navigator.locks?.request === 'function' && typeof BroadcastChannel === 'function';
}

/** Follows the status stream, shared with the other tabs of `key`; the returned function leaves (sign-out, unmount). */
export function shareStatusStream(options: SharedStreamOptions): () => void {
  let stopped = false;
  let lastEventId: string | undefined;
  let channel: BroadcastChannel | undefined;
  let lockName: string | undefined;
  /** Set where the tabs share the stream: one leader at a time, so its stream may replace the last. */
  let client: string | undefined;
  /** Set while this tab leads: ends the lead (stops the stream, releases the lock). */
  let endLead: (() => void) | undefined;
  /** Set while this tab takes part in the election (waits for the lock, or holds it). */
  let candidacy: AbortController | undefined;
  let hiddenTimer: ReturnType<typeof setTimeout> | undefined;
  let leaderState: StreamState = 'connecting';

  const post = (message: TabMessage) => channel?.postMessage(message);
  const setState = (state: StreamState) => {
    leaderState = state;
    options.onState(state);
  };

  /** Leads until the lead ends: follows the stream and tells the other tabs everything it hears. */
  const lead = () =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const stopStream = followStatusStream({
        credential: options.credential,
        client,
        lastEventId,
        onState(state) {
          setState(state);
          post({ type: 'state', state, id: lastEventId });
        },
        onPosition(id) {
          lastEventId = id;
          post({ type: 'position', id });
        },
        onChange(event) {
          options.onChange(event);
          post({ type: 'change', event });
        },
        onResync() {
          options.onResync();
          post({ type: 'resync' });
        },
        onUnauthorized() {
          options.onUnauthorized();
          post({ type: 'unauthorized' });
        },
      });
      endLead = () => {
        endLead = undefined;
        stopStream();
        resolve();
      };
    });

  /** Joins the election: leads at once when no tab leads, else waits its turn. */
  const join = () => {
    if (stopped || candidacy) return;
    const mine = new AbortController();
    candidacy = mine;
    const done = () => {
      if (candidacy === mine) candidacy = undefined;
    };
    if (!lockName) {
      // Nothing to share with: this tab leads alone.
      void lead().then(done);
      return;
    }
    navigator.locks
      .request(lockName, { signal: mine.signal }, lead)
      // An aborted wait rejects: the tab left the election before its turn.
      .catch(() => undefined)
      .finally(done);
  };

  /** Leaves the election: ends the lead (the next tab in line takes over) or stops waiting. */
  const leave = () => {
    if (endLead) {
      // Until another tab leads (if one is left), the stream is closed.
      if (!stopped) setState('connecting');
      post({ type: 'state', state: 'connecting', id: lastEventId });
      endLead();
    }
    candidacy?.abort();
    candidacy = undefined;
  };

  /** A tab takes part while shown, and while hidden for less than HIDDEN_CLOSE_MS (also from its load). */
  const onVisibility = () => {
    clearTimeout(hiddenTimer);
    hiddenTimer = undefined;
    join();
    if (document.visibilityState !== 'visible') hiddenTimer = setTimeout(leave, HIDDEN_CLOSE_MS);
  };
  /** A page put in the back/forward cache leaves at once; shown again from it, it joins again. */
  const onPageHide = (event: PageTransitionEvent) => {
    if (event.persisted) leave();
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) onVisibility();
  };

  const onMessage = (event: MessageEvent<TabMessage>) => {
    const message = event.data;
    switch (message.type) {
      case 'hello':
        if (endLead) post({ type: 'state', state: leaderState, id: lastEventId });
        return;
      case 'state':
        if (message.id) lastEventId = message.id;
        if (!endLead) setState(message.state);
        return;
      case 'position':
        lastEventId = message.id;
        return;
      case 'change':
        options.onChange(message.event);
        return;
      case 'resync':
        options.onResync();
        return;
      case 'unauthorized':
        options.onUnauthorized();
        return;
    }
  };

  const start = async () => {
    if (canShare()) {
      const name = await nameOf(options.credential);
      const named = await browserClient(options.credential);
      if (stopped) return;
      lockName = name;
      client = named;
      channel = new BroadcastChannel(name);
      channel.addEventListener('message', onMessage);
      // The leader answers with its state and position (this tab shows "live" without waiting for an event).
      post({ type: 'hello' });
    }
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    window.addEventListener('pageshow', onPageShow);
    onVisibility();
  };

  setState('connecting');
  void start();
  return () => {
    stopped = true;
    clearTimeout(hiddenTimer);
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
    leave();
    channel?.close();
  };
}
