import { FsToolError, type ReadTextFileOptions, type TextFile } from "./types.js";

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Like git and ripgrep: a NUL byte near the start means binary. */
const SNIFF_BYTES = 8 * 1024;

/**
 * Reads a UTF-8 text file through the file-system port. `content` is the exact decoded text,
 * byte-order mark included, so a file read, edited and written back keeps its bytes; `lines`
 * drops the mark (it is not text the model should see or quote). Throws FsToolError
 * `not_found`, `is_directory`, `too_large` (checked before reading) or `binary` (a NUL byte in
 * the first 8 KiB, invalid UTF-8, or not a regular file: a FIFO or device would block); other
 * I/O errors (permissions) are rethrown as they come.
 */
export async function readTextFile(options: ReadTextFileOptions): Promise<TextFile> {
  const { fs, path: file } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const info = await fs.stat(file);
  if (!info) throw new FsToolError("not_found", `File does not exist: ${file}`);
  if (info.isDirectory) throw new FsToolError("is_directory", `Path is a directory, not a file: ${file}`);
  // A FIFO or device would block the read or never end; neither is a text file.
  if (!info.isFile) throw new FsToolError("binary", `Not a regular file: ${file}`);
  if (info.size > maxBytes) throw tooLarge(file, info.size, maxBytes);
  const bytes = await fs.readBytes(file);
  // The file may have grown between stat and read.
  if (bytes.length > maxBytes) throw tooLarge(file, bytes.length, maxBytes);
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) {
    throw new FsToolError("binary", `File appears to be binary (contains NUL bytes): ${file}`);
  }
  let content: string;
  try {
    content = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new FsToolError("binary", `File is not valid UTF-8 text: ${file}`);
  }
  return { path: file, content, lines: splitLines(content), mtimeMs: info.mtimeMs, size: bytes.length };
}

function splitLines(content: string): string[] {
  const text = content.startsWith("\uFEFF") ? content.slice(1) : content;
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function tooLarge(file: string, size: number, maxBytes: number): FsToolError {
  return new FsToolError("too_large", `File is too large (${size} bytes, limit ${maxBytes} bytes): ${file}`);
}
