import { spawn } from "node:child_process";
import path from "node:path";
import type { GrepTarget } from "./grep-fallback.js";
import type { GrepCollector } from "./grep-output.js";
import { FsToolError, type GrepOptions } from "./types.js";

/** stderr of ripgrep's exit code 2 that means the model's pattern, glob or type is wrong. */
const USAGE_ERROR = /regex parse error|error parsing glob|unrecognized file type|not allowed in a regex/i;

/**
 * Runs ripgrep and feeds its results to `out`. Content comes as `--json` (exact paths, line
 * numbers and match/context kinds, whatever the file names contain); `-l` and `-c` with
 * `--null`. `--sort path` makes the order stable (and equal to the JS fallback's), and lets us
 * kill ripgrep as soon as the head limit is reached. Global and `.git/info/exclude` ignores are
 * off so results do not depend on the user's git config. ripgrep gets an empty environment and
 * never the daemon's stdout. Rejects with the signal's reason on abort, FsToolError
 * `invalid_pattern` for a bad regex/glob/type, and the spawn error (ENOENT) if `rg` vanished.
 */
export function grepWithRipgrep(
  rg: string,
  options: GrepOptions,
  target: GrepTarget,
  out: GrepCollector,
): Promise<void> {
  const mode = options.outputMode;
  const child = spawn(rg, ripgrepArgs(options, target), {
    cwd: target.isDirectory ? target.root : path.dirname(target.root),
    stdio: ["ignore", "pipe", "pipe"],
    env: {},
  });
  const shown = (raw: string) => (target.isDirectory ? raw.replace(/^\.\//, "") : raw);
  const absolute = (raw: string) => (target.isDirectory ? path.join(target.root, shown(raw)) : raw);
  let stopped = false;
  let failure: unknown;
  let stderr = "";
  let pending = "";
  const delimiter = mode === "files_with_matches" ? "\0" : "\n";

  const onRecord = (record: string) => {
    if (mode === "content") {
      const message = JSON.parse(record) as RipgrepMessage;
      if (message.type !== "match" && message.type !== "context") return;
      const file = decode(message.data.path);
      const lines = decode(message.data.lines).split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      lines.forEach((line, k) => {
        const lineNumber = (message.data.line_number ?? 0) + k;
        out.contentLine(
          shown(file),
          absolute(file),
          lineNumber,
          line.replace(/\r$/, ""),
          message.type === "match",
        );
      });
    } else if (mode === "count") {
      const split = record.lastIndexOf("\0");
      const file = record.slice(0, split);
      out.countLine(shown(file), absolute(file), Number(record.slice(split + 1)));
    } else {
      out.fileLine(shown(record), absolute(record));
    }
  };

  return new Promise<void>((resolve, reject) => {
    const onAbort = () => child.kill("SIGKILL");
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      pending += chunk;
      let start = 0;
      let end = pending.indexOf(delimiter);
      while (end >= 0 && !stopped) {
        const record = pending.slice(start, end);
        start = end + 1;
        try {
          if (record !== "") onRecord(record);
        } catch (error) {
          failure = new Error(`unreadable ripgrep output: ${(error as Error).message}`);
        }
        if (out.full || failure) {
          stopped = true;
          child.kill("SIGTERM");
        }
        end = pending.indexOf(delimiter, start);
      }
      pending = pending.slice(start);
    });
    child.on("error", (error) => {
      options.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code) => {
      options.signal.removeEventListener("abort", onAbort);
      if (options.signal.aborted) return reject(options.signal.reason);
      if (failure) return reject(failure);
      if (stopped || code === 0 || code === 1) return resolve();
      const message = stderr.trim();
      if (USAGE_ERROR.test(message)) return reject(new FsToolError("invalid_pattern", message));
      // Exit 2 after results means some files could not be read; the results still stand.
      if (out.produced > 0) return resolve();
      reject(new Error(`ripgrep failed (exit ${code}): ${message}`));
    });
  });
}

function ripgrepArgs(options: GrepOptions, target: GrepTarget): string[] {
  const args = ["--no-config", "--hidden", "--no-ignore-global", "--no-ignore-exclude", "--sort", "path"];
  args.push("--color", "never", "--no-heading", "--with-filename");
  if (options.ignoreCase) args.push("-i");
  if (options.multiline) args.push("-U", "--multiline-dotall");
  if (options.glob) args.push("-g", options.glob);
  for (const name of target.skipNames) args.push("-g", `!${name}`);
  if (options.type) args.push("-t", options.type);
  if (options.outputMode === "files_with_matches") args.push("-l", "--null");
  else if (options.outputMode === "count") args.push("-c", "--null");
  else {
    args.push("--json");
    if (options.before) args.push("-B", String(options.before));
    if (options.after) args.push("-A", String(options.after));
  }
  args.push("-e", options.pattern, "--", target.isDirectory ? "." : target.root);
  return args;
}

interface RipgrepText {
  text?: string;
  bytes?: string;
}

interface RipgrepMessage {
  type: string;
  data: { path: RipgrepText; lines: RipgrepText; line_number?: number | null };
}

function decode(value: RipgrepText): string {
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}
