import fs from "node:fs";
import path from "node:path";
import pino from "pino";

/**
 * The daemon's logger. stdout is the ACP protocol, so nothing here ever writes to it: lines go
 * to `$home/log/openinterpreter.log` (JSON, one object per line) and, when asked, to stderr.
 * Methods never throw or block on a broken log. Lines are written synchronously, so a crash loses
 * nothing and lines keep their order; `flush()` (fsync) is for shutdown.
 */
export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  /** A logger that adds `bindings` to every line; it shares the parent's file and flush. */
  child(bindings: Record<string, unknown>): Logger;
  flush(): void;
}

export interface CreateLoggerOptions {
  home: string;
  /** A pino level (`trace` … `fatal`, `silent`); default `info`. An unknown level falls back to `info`. */
  level?: string;
  /** Also write every line to fd 2. */
  stderr?: boolean;
}

/** Credentials can reach a log line through provider configs or request headers. */
export const REDACT_PATHS = [
  "apiKey",
  "authorization",
  "*.apiKey",
  "*.authorization",
  "headers.authorization",
  "headers.Authorization",
  "*.headers.authorization",
  "*.headers.Authorization",
];

export function logFilePath(home: string): string {
  return path.join(home, "log", "openinterpreter.log");
}

/** Throws when the log directory or file cannot be created (a start-up failure). */
export function createLogger(options: CreateLoggerOptions): Logger {
  const file = logFilePath(options.home);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // 0600: lines may quote prompts and file contents.
  const fd = fs.openSync(file, "a", 0o600);
  // Synchronous on purpose. With `sync: false` a synchronous flush at exit can overtake a write
  // still in flight (lines land out of order) and a crash drops the buffer; one write(2) per
  // line costs far less than anything a turn does. pino is bundled (and, from the start-up
  // snapshot, already evaluated): requiring it from node_modules at start would slow every start
  // (docs/performance.md).
  const fileStream = pino.destination({ dest: fd, sync: true });
  // A failing log (disk full) must not take the daemon down; say so once on stderr.
  let reported = false;
  fileStream.on("error", (error: Error) => {
    if (reported) return;
    reported = true;
    process.stderr.write(`openinterpreter: cannot write ${file}: ${error.message}\n`);
  });
  const requested = options.level ?? "info";
  const level = Object.hasOwn(pino.levels.values, requested) || requested === "silent" ? requested : "info";
  const streams: pino.StreamEntry[] = [{ level: "trace", stream: fileStream }];
  if (options.stderr) streams.push({ level: "trace", stream: pino.destination({ dest: 2, sync: true }) });

  const root = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    streams.length === 1 ? fileStream : pino.multistream(streams),
  );
  // Every line is already written when the call returns; flushing only asks the disk to keep it.
  // Not `fileStream.flushSync()`: sonic-boom 4.2 retries a failing write there forever (a full
  // disk would hang shutdown).
  const flush = () => {
    try {
      fs.fsyncSync(fd);
    } catch {
      // Nothing sensible to do when the log itself cannot be written; the error handler spoke.
    }
  };
  if (level !== requested) root.warn({ requested }, "unknown log level; using info");
  return wrap(root, flush);
}

function wrap(logger: pino.Logger, flush: () => void): Logger {
  const at =
    (level: "debug" | "info" | "warn" | "error") =>
    (obj: object | string, msg?: string): void => {
      if (typeof obj === "string") logger[level](msg === undefined ? obj : `${obj} ${msg}`);
      else logger[level](obj, msg);
    };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    child: (bindings) => wrap(logger.child(bindings), flush),
    flush,
  };
}

/** A logger that drops everything (tests, and code paths that have none). */
export function createSilentLogger(): Logger {
  const noop = () => {};
  const silent: Logger = {
    debug: noop,
    info: noop,
    warn: noop,
    error: noop,
    child: () => silent,
    flush: noop,
  };
  return silent;
}
