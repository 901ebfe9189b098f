import * as z from 'zod';

/** POSTs `body` to the runtime under test with the tenant's key; its 201 answer's id (anything else throws). */
export async function postCreated(
  url: string,
  key: string,
  path: string,
  body: unknown,
): Promise<{ id: string }> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return z.object({ id: z.string() }).parse(JSON.parse(text));
}
