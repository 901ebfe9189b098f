/**
 * The last `limit` bytes of a command's combined output, kept as it arrives (stdout and stderr in
 * the order their chunks reach the wrapper), so that a job printing gigabytes costs `limit` bytes.
 */
export class OutputTail {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropped = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    let first = this.#chunks[0];
    while (first !== undefined && this.#size - first.length >= this.#limit) {
      this.#chunks.shift();
      this.#size -= first.length;
      this.#dropped = true;
      first = this.#chunks[0];
    }
  }

  /** The tail as text (cut at a character boundary) and whether earlier output was left out. */
  read(): { text: string; truncated: boolean } {
    const all = Buffer.concat(this.#chunks);
    let start = Math.max(0, all.length - this.#limit);
    // A cut inside a UTF-8 sequence would start the text with a broken character: skip its rest.
    while (start > 0 && start < all.length && ((all[start] ?? 0) & 0xc0) === 0x80) start += 1;
    return { text: all.subarray(start).toString('utf8'), truncated: this.#dropped || start > 0 };
  }
}
