export const DEFAULT_OUTPUT_CAP = 1024 * 1024;

export interface BoundedText {
  /** Head and tail decoded as UTF-8 (invalid bytes become U+FFFD), joined by an omission note. */
  text: string;
  /** Bytes of the stream not in `text` (0 when complete). */
  droppedBytes: number;
  totalBytes: number;
  /** Newlines, plus one for a final line without a newline. */
  totalLines: number;
}

/**
 * Keeps the first `cap/2` and the last `cap/2` bytes of a byte stream, whatever its length:
 * memory never exceeds `cap` (plus the note), each chunk costs time linear in its own size
 * only (never a re-scan of earlier data), so `yes` or a binary dump cannot exhaust the daemon
 * or starve its event loop.
 */
export class BoundedOutput {
  readonly #headCap: number;
  readonly #tailCap: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  /** Ring buffer for the tail, allocated when the head first fills. */
  #tail: Buffer | undefined;
  #tailPos = 0;
  #tailFilled = 0;
  #totalBytes = 0;
  #newlines = 0;
  #lastByte = -1;

  constructor(cap: number = DEFAULT_OUTPUT_CAP) {
    if (!Number.isInteger(cap) || cap < 8) throw new RangeError(`output cap must be an integer >= 8: ${cap}`);
    this.#headCap = Math.floor(cap / 2);
    this.#tailCap = cap - this.#headCap;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#totalBytes += chunk.length;
    this.#lastByte = chunk[chunk.length - 1]!;
    let newlines = 0;
    for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 10) newlines += 1;
    this.#newlines += newlines;
    let rest = chunk;
    if (this.#headBytes < this.#headCap) {
      const take = Math.min(this.#headCap - this.#headBytes, rest.length);
      this.#head.push(Buffer.from(rest.subarray(0, take)));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) this.#pushTail(rest);
  }

  #pushTail(bytes: Uint8Array): void {
    this.#tail ??= Buffer.allocUnsafe(this.#tailCap);
    const cap = this.#tailCap;
    const src = bytes.length > cap ? bytes.subarray(bytes.length - cap) : bytes;
    const first = Math.min(src.length, cap - this.#tailPos);
    this.#tail.set(src.subarray(0, first), this.#tailPos);
    if (first < src.length) this.#tail.set(src.subarray(first), 0);
    this.#tailPos = (this.#tailPos + src.length) % cap;
    this.#tailFilled = Math.min(cap, this.#tailFilled + src.length);
  }

  /**
   * Decodes what was kept. The cut never splits a multi-byte character into garbage. `gap` is
   * what stands between head and tail when bytes were dropped (default: an omission note).
   */
  finish(gap: (droppedBytes: number) => string = omissionNote): BoundedText {
    const totalLines = this.#newlines + (this.#totalBytes > 0 && this.#lastByte !== 10 ? 1 : 0);
    const head = Buffer.concat(this.#head, this.#headBytes);
    const tail = this.#tailBytes();
    if (this.#headBytes + this.#tailFilled === this.#totalBytes) {
      return {
        text: Buffer.concat([head, tail]).toString("utf8"),
        droppedBytes: 0,
        totalBytes: this.#totalBytes,
        totalLines,
      };
    }
    const keptHead = head.subarray(0, completeUtf8Prefix(head));
    const keptTail = tail.subarray(utf8StartOffset(tail));
    const droppedBytes = this.#totalBytes - keptHead.length - keptTail.length;
    const text = `${keptHead.toString("utf8")}${gap(droppedBytes)}${keptTail.toString("utf8")}`;
    return { text, droppedBytes, totalBytes: this.#totalBytes, totalLines };
  }

  #tailBytes(): Buffer {
    if (!this.#tail) return Buffer.alloc(0);
    if (this.#tailFilled < this.#tailCap) return this.#tail.subarray(0, this.#tailFilled);
    return Buffer.concat([this.#tail.subarray(this.#tailPos), this.#tail.subarray(0, this.#tailPos)]);
  }
}

function omissionNote(droppedBytes: number): string {
  return `\n[… ${droppedBytes} bytes omitted …]\n`;
}

/** Length of `bytes` without a trailing, incomplete UTF-8 sequence. */
export function completeUtf8Prefix(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(4, n); back += 1) {
    const byte = bytes[n - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

/** Offset of the first byte in `bytes` that is not a UTF-8 continuation byte (at most 3 skipped). */
function utf8StartOffset(bytes: Uint8Array): number {
  let offset = 0;
  while (offset < 3 && offset < bytes.length && (bytes[offset]! & 0xc0) === 0x80) offset += 1;
  return offset;
}
