/** The JSON-RPC messages of an SSE body (a listen stream's, a session's GET stream), as they arrive. */
export async function* messages(body: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n');
      if (data) yield JSON.parse(data);
      end = buffer.indexOf('\n\n');
    }
  }
}

/** The first message `match` accepts, within 20 s (bounded: a test waits for what it reads). */
export async function until(
  stream: AsyncGenerator<Record<string, unknown>>,
  match: (m: Record<string, unknown>) => boolean,
) {
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('no such message within 20 s')), 20_000).unref(),
  );
  // next(), not for-await: leaving a for-await loop would close the stream.
  const found = (async () => {
    for (;;) {
      const { value, done } = await stream.next();
      if (done) throw new Error('the stream ended first');
      if (match(value)) return value;
    }
  })();
  return Promise.race([found, deadline]);
}
