import { afterAll, beforeAll, expect } from 'vitest';
import { type ConsolePage, type ConsoleRig, openPage, signIn, startConsole } from './support.ts';

export interface UseConsoleOptions {
  /** Runtime settings added to the rig's (see startConsole); a function when they are known only in a beforeAll. */
  env?: Record<string, string> | (() => Record<string, string>);
  /** What the file's tests share, made through the API once the rig is up (part of the same hook). */
  seed?: (rig: ConsoleRig) => Promise<void>;
  /** The bound on starting and seeding together. */
  timeout?: number;
}

/**
 * The console rig of a describe block: started (and seeded) before its tests, stopped after them.
 * Answers the rig at once, for the tests to close over; reading it before the block's tests run throws.
 */
export function useConsole(options: UseConsoleOptions = {}): ConsoleRig {
  let started: ConsoleRig | undefined;
  const rig = (): ConsoleRig => {
    if (!started) throw new Error('the console rig is read before its beforeAll started it');
    return started;
  };
  beforeAll(async () => {
    const { env } = options;
    started = await startConsole(typeof env === 'function' ? env() : env);
    await options.seed?.(started);
  }, options.timeout ?? 150_000);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    get url() {
      return rig().url;
    },
    get key() {
      return rig().key;
    },
    get server() {
      return rig().server;
    },
    get dataDir() {
      return rig().dataDir;
    },
    get browser() {
      return rig().browser;
    },
    api: <T = unknown>(method: string, path: string, body?: unknown, key?: string) =>
      rig().api<T>(method, path, body, key),
    stop: () => rig().stop(),
  };
}

/** A new page signed in with `key` (the admin's by default), at `path` when one is given. */
export async function openSignedIn(
  rig: ConsoleRig,
  options: { path?: string; key?: string; width?: number } = {},
): Promise<ConsolePage> {
  const p = await openPage(rig, options.width === undefined ? {} : { width: options.width });
  await signIn(p.page, options.key ?? rig.key);
  if (options.path) await p.page.goto(options.path);
  return p;
}

/** A check made through the API (201); answers its id. */
export async function seedCheck(rig: ConsoleRig, check: Record<string, unknown>): Promise<string> {
  const made = await rig.api<{ id: string }>('POST', '/v1/checks', check);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

/** A push check on the entity (hourly, threshold 1: one failed result takes it down), made through the API (201); answers its id. */
export function seedPushCheck(rig: ConsoleRig, entityId: string): Promise<string> {
  return seedCheck(rig, {
    entity_id: entityId,
    check_type: 'push',
    interval_seconds: 3600,
    failure_threshold: 1,
  });
}

/** Invites `email` as a member and accepts without a password, through the API; answers the member's key. */
export async function inviteMember(rig: ConsoleRig, email = 'member@example.com'): Promise<string> {
  const invitation = await rig.api<{ token: string }>('POST', '/v1/settings/users/invite', {
    email,
    role: 'member',
  });
  const accepted = await rig.api<{ key: string }>('POST', '/v1/settings/users/accept', {
    token: invitation.body.token,
    name: 'Member',
  });
  return accepted.body.key;
}
