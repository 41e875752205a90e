/** Frame header: `[type u8][id u32 BE][payload length u32 BE]`, as in spawner-main.ts. */
export const HEADER_BYTES = 9;

export interface FrameHandlers {
  /** Types whose payload is handed over in pieces as it arrives (command output). */
  streamed: ReadonlySet<number>;
  /** One piece of a streamed frame's payload, in order; never empty. */
  onPiece(type: number, id: number, bytes: Buffer): void;
  /** A whole frame of any other type. */
  onFrame(type: number, id: number, payload: Buffer): void;
}

/**
 * Cuts the helper's byte stream into frames. Output payloads are passed on as slices of the
 * chunks read (no copy, no reassembly), so a command's 64 KiB reads cost no more than before.
 */
export class FrameReader {
  readonly #handlers: FrameHandlers;
  #header: Buffer = Buffer.alloc(0);
  #type = 0;
  #id = 0;
  /** Payload bytes still to come of the current frame; -1 while reading a header. */
  #remaining = -1;
  #parts: Buffer[] = [];

  constructor(handlers: FrameHandlers) {
    this.#handlers = handlers;
  }

  feed(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.#remaining < 0) {
        const need = HEADER_BYTES - this.#header.length;
        const take = chunk.subarray(offset, offset + need);
        offset += take.length;
        this.#header = this.#header.length === 0 ? take : Buffer.concat([this.#header, take]);
        if (this.#header.length < HEADER_BYTES) return;
        this.#type = this.#header.readUInt8(0);
        this.#id = this.#header.readUInt32BE(1);
        this.#remaining = this.#header.readUInt32BE(5);
        this.#header = Buffer.alloc(0);
        if (this.#remaining === 0) this.#finish();
        continue;
      }
      const piece = chunk.subarray(offset, offset + this.#remaining);
      offset += piece.length;
      this.#remaining -= piece.length;
      if (this.#handlers.streamed.has(this.#type)) this.#handlers.onPiece(this.#type, this.#id, piece);
      else this.#parts.push(piece);
      if (this.#remaining === 0) this.#finish();
    }
  }

  #finish(): void {
    this.#remaining = -1;
    if (this.#handlers.streamed.has(this.#type)) return;
    const payload = this.#parts.length === 1 ? (this.#parts[0] as Buffer) : Buffer.concat(this.#parts);
    this.#parts = [];
    this.#handlers.onFrame(this.#type, this.#id, payload);
  }
}

export function encodeFrame(type: number, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payload.length);
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(payload.length, 5);
  payload.copy(frame, HEADER_BYTES);
  return frame;
}
