import { describe, expect, it } from 'vitest';
import {
  executionIdOfToken,
  newCallbackToken,
  verifyCallbackToken,
} from '../../lib/actions/runs/callback-token.ts';
import { newId } from '../../lib/platform/ids.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const DAY_MS = 24 * 3600 * 1000;

function issued() {
  const id = newId('exe', NOW);
  const minted = newCallbackToken(id, NOW);
  const execution = { id, callback_token_hash: minted.hash, callback_expires_at: minted.expiresAt };
  return { id, minted, execution };
}

describe('callback tokens', () => {
  it('names the execution and expires 24 hours after issue', () => {
    const { id, minted } = issued();
    expect(minted.token).toMatch(/^vcb_exe_[0-9A-Z]{26}_[0-9A-Za-z]{40}$/);
    expect(executionIdOfToken(minted.token)).toBe(id);
    expect(minted.expiresAt).toBe(new Date(NOW + DAY_MS).toISOString());
    expect(minted.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(minted.hash).not.toContain(minted.token);
  });

  it('verifies for its own execution until it expires', () => {
    const { minted, execution } = issued();
    expect(verifyCallbackToken(minted.token, execution, NOW)).toBe(true);
    expect(verifyCallbackToken(minted.token, execution, NOW + DAY_MS - 1)).toBe(true);
    expect(verifyCallbackToken(minted.token, execution, NOW + DAY_MS)).toBe(false);
  });

  it('rejects a token of another execution, a tampered token and a record without a hash', () => {
    const one = issued();
    const other = issued();
    expect(verifyCallbackToken(other.minted.token, one.execution, NOW)).toBe(false);
    const tampered = `${one.minted.token.slice(0, -1)}${one.minted.token.endsWith('a') ? 'b' : 'a'}`;
    expect(verifyCallbackToken(tampered, one.execution, NOW)).toBe(false);
    const forged = `vcb_${one.id}_${'x'.repeat(40)}`;
    expect(verifyCallbackToken(forged, one.execution, NOW)).toBe(false);
    const unset = { ...one.execution, callback_token_hash: null };
    expect(verifyCallbackToken(one.minted.token, unset, NOW)).toBe(false);
  });

  it('reads no execution id out of strings that are not callback tokens', () => {
    expect(executionIdOfToken('vgl_abc')).toBeUndefined();
    expect(executionIdOfToken('vcb_exe_short_abc')).toBeUndefined();
    expect(executionIdOfToken('')).toBeUndefined();
  });
});
