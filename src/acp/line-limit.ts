/** Lines longer than this are dropped (the SDK's own default, 32 MiB). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** What replaces a dropped line: not JSON, so the SDK answers it with -32700 and goes on. */
const OVERSIZED = new TextEncoder().encode("oversized message dropped\n");

/**
 * Frames stdin into whole lines before the SDK sees them. The SDK ends the connection (and
 * with it the daemon, silently) on a line over its limit; here such a line is discarded as it
 * streams in, without buffering more than the limit, and the SDK gets a one-line stand-in that
 * it answers with a parse error, so the editor hears about it and the session goes on.
 */
export function limitLines(
  input: ReadableStream<Uint8Array>,
  options: { maxBytes?: number; onOversized?: (bytes: number) => void } = {},
): ReadableStream<Uint8Array> {
  const max = options.maxBytes ?? MAX_LINE_BYTES;
  let parts: Uint8Array[] = [];
  let length = 0;
  let dropping = false;
  let dropped = 0;
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        let start = 0;
        while (start < chunk.length) {
          const newline = chunk.indexOf(10, start);
          const end = newline < 0 ? chunk.length : newline + 1;
          const piece = chunk.subarray(start, end);
          if (dropping) dropped += piece.length;
          else if (length + piece.length > max + 1) {
            dropping = true;
            dropped = length + piece.length;
            parts = [];
            length = 0;
          } else {
            parts.push(piece);
            length += piece.length;
          }
          if (newline >= 0) {
            if (dropping) {
              options.onOversized?.(dropped);
              controller.enqueue(OVERSIZED);
            } else controller.enqueue(concat(parts, length));
            parts = [];
            length = 0;
            dropping = false;
          }
          start = end;
        }
      },
      flush(controller) {
        if (!dropping && length > 0) controller.enqueue(concat(parts, length));
      },
    }),
  );
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
