import { expect } from 'vitest';
import type { ApiHarness, ApiResponse } from '../support/api-harness.ts';

/** Shared steps of the team tests: invite, accept, join (both), and who-am-I. */

let counter = 0;

/** A fresh e-mail address per call, so tests sharing one harness never collide. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${counter}-${Date.now()}@example.com`;
}

export function invite(api: ApiHarness, key: string, body: Record<string, unknown>): Promise<ApiResponse> {
  return api.request('POST', '/v1/settings/users/invite', { key, body });
}

export function accept(api: ApiHarness, token: string, name = 'New Member'): Promise<ApiResponse> {
  return api.request('POST', '/v1/settings/users/accept', { body: { token, name } });
}

export interface Joined {
  email: string;
  key: string;
  userId: string;
  invitationId: string;
}

/** Invites `email` with `adminKey` and accepts; returns the new member's key and ids. */
export async function join(
  api: ApiHarness,
  adminKey: string,
  options: { email?: string; role?: 'admin' | 'member' | 'viewer' } = {},
): Promise<Joined> {
  const email = options.email ?? uniqueEmail();
  const invited = await invite(api, adminKey, { email, ...(options.role ? { role: options.role } : {}) });
  expect(invited.status).toBe(201);
  const accepted = await accept(api, invited.body.token);
  expect(accepted.status).toBe(201);
  return { email, key: accepted.body.key, userId: accepted.body.user.id, invitationId: invited.body.id };
}

/** The caller's user id, from GET /v1/me. */
export async function userIdOf(api: ApiHarness, key: string): Promise<string> {
  const me = await api.request('GET', '/v1/me', { key });
  expect(me.status).toBe(200);
  return me.body.user.id;
}

/** The ids listed by GET /v1/settings/users. */
export async function listedIds(api: ApiHarness, key: string): Promise<string[]> {
  const list = await api.request('GET', '/v1/settings/users', { key });
  expect(list.status).toBe(200);
  return list.body.map((entry: { id: string }) => entry.id);
}
