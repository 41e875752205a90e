import { chmodSync, closeSync, copyFileSync, openSync, readSync, realpathSync } from "node:fs";
import path from "node:path";

/** What the confined spawn helper runs from, on the host. */
export interface HelperFiles {
  /**
   * An unreadable (mode 0111) copy of node's ELF loader, which the helper is started through:
   * a process whose program file it cannot read is not dumpable, so the commands beside it in
   * the sandbox cannot ptrace it or open its `/proc/<pid>/fd`, `mem` or `environ`.
   */
  loader: string;
  node: string;
  /** The directory of `dist/spawner.js` (it imports chunks beside it), and its name. */
  scriptDir: string;
  scriptName: string;
}

/** Where those files appear inside the sandbox (bound read-only into its private `/tmp`). */
export const INSIDE = {
  loader: "/tmp/.oi-helper/ld.so",
  node: "/tmp/.oi-helper/node",
  scriptDir: "/tmp/.oi-helper/dist",
} as const;

/**
 * Copies node's loader into `dir` (a private directory of the daemon's) as an execute-only
 * file. Undefined when node has no loader to copy (statically linked, not ELF) or the copy
 * fails: then there is no confined helper, and each command gets a sandbox of its own.
 */
export function prepareHelperFiles(dir: string, script: string): HelperFiles | undefined {
  try {
    const node = realpathSync(process.execPath);
    const interpreter = elfInterpreter(node);
    if (interpreter === undefined) return undefined;
    const loader = path.join(dir, "ld.so");
    copyFileSync(interpreter, loader);
    chmodSync(loader, 0o111);
    const real = realpathSync(script);
    return { loader, node, scriptDir: path.dirname(real), scriptName: path.basename(real) };
  } catch {
    return undefined;
  }
}

/** The `PT_INTERP` path of a 64-bit little-endian ELF file, if it has one. */
function elfInterpreter(file: string): string | undefined {
  const fd = openSync(file, "r");
  try {
    const read = (offset: number, length: number): Buffer => {
      const bytes = Buffer.alloc(length);
      readSync(fd, bytes, 0, length, offset);
      return bytes;
    };
    const header = read(0, 64);
    if (header.readUInt32BE(0) !== 0x7f454c46 || header[4] !== 2 || header[5] !== 1) return undefined;
    const phoff = Number(header.readBigUInt64LE(0x20));
    const entrySize = header.readUInt16LE(0x36);
    const count = header.readUInt16LE(0x38);
    const table = read(phoff, entrySize * count);
    for (let i = 0; i < count; i++) {
      const entry = table.subarray(i * entrySize);
      if (entry.readUInt32LE(0) !== 3) continue; // PT_INTERP
      const offset = Number(entry.readBigUInt64LE(8));
      const size = Number(entry.readBigUInt64LE(32));
      return read(offset, size).toString("latin1").replace(/\0+$/, "");
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
