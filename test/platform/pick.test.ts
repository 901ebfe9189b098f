import { describe, expect, it } from 'vitest';
import { pick } from '../../lib/platform/pick.ts';

describe('pick', () => {
  it('copies the named fields in the order named and leaves the rest out', () => {
    const record = { id: 'a', secret: 's', name: 'n', created_at: 't' };

    const view = pick(record, ['name', 'id', 'created_at']);

    expect(view).toEqual({ name: 'n', id: 'a', created_at: 't' });
    expect(Object.keys(view)).toEqual(['name', 'id', 'created_at']);
  });

  it('keeps a named field the record lacks as undefined, so a later value takes its place', () => {
    const record: { id: string; note?: string | null; at: string } = { id: 'a', at: 't' };

    const view = { ...pick(record, ['id', 'note', 'at']), note: record.note ?? null };

    expect(Object.keys(view)).toEqual(['id', 'note', 'at']);
    expect(view.note).toBeNull();
  });
});
