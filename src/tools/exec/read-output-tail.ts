import { open } from "node:fs/promises";

export interface OutputTail {
  /** The last bytes of the file decoded as UTF-8, never starting inside a character. */
  text: string;
  /** The file's size in bytes (0 when it does not exist). */
  size: number;
  /** Where `text` starts in the file, in bytes: 0 when it is the whole file. */
  start: number;
}

/**
 * The last `maxBytes` bytes of a background command's output file, read without loading the rest
 * (the file can grow far past what a tool shows). The file is the daemon's own log, never a
 * workspace file an editor could hold, so it is read from disk and not through the file port. A
 * missing file reads as empty.
 */
export async function readOutputTail(file: string, maxBytes: number): Promise<OutputTail> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { text: "", size: 0, start: 0 };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, size - length + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    let skip = 0;
    // Continuation bytes (10xxxxxx) at the cut belong to a character that began before it.
    if (length < size) while (skip < read && (buffer[skip]! & 0xc0) === 0x80) skip++;
    return { text: buffer.subarray(skip, read).toString("utf8"), size, start: size - length + skip };
  } finally {
    await handle.close();
  }
}
