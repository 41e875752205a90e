import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DaemonPaths } from "./daemon-paths.js";

/**
 * Starts `interpreter daemon` in the background, the way this process was started (the V8
 * snapshot or the plain script), with the proxy's environment and flags, in its own session
 * (an editor killing its process group does not take the daemon with it). stdin and stdout go
 * nowhere; stderr to a file beside the socket. Errors surface as the connection timing out.
 */
export function startDaemon(options: {
  paths: DaemonPaths;
  argv: string[];
  env: NodeJS.ProcessEnv;
}): StartedDaemon {
  const script = process.argv[1];
  // Under the snapshot argv[1] is the command itself and execArgv carries `--snapshot-blob`.
  // Paths are made absolute: the daemon runs in another folder.
  const self = script && /\.m?js$/.test(script) ? [script] : ["--"];
  let stderr: number | "ignore" = "ignore";
  try {
    stderr = fs.openSync(options.paths.stderr, "a", 0o600);
  } catch {
    // The daemon logs to its log file anyway; stderr is for what happens before the logger.
  }
  try {
    const flags = process.execArgv.map((arg, i) =>
      process.execArgv[i - 1] === "--snapshot-blob" ? path.resolve(arg) : arg,
    );
    const child = spawn(
      process.execPath,
      [...flags, ...self.map((s) => (s === "--" ? s : path.resolve(s))), "daemon", ...options.argv],
      {
        detached: true,
        stdio: ["ignore", "ignore", stderr],
        env: options.env,
        // Not the first window's folder: a long-lived process must not pin a workspace (or a
        // deleted one); sessions carry absolute paths.
        cwd: options.paths.dir,
      },
    );
    let failed = false;
    child.on("error", () => {
      failed = true;
    });
    // Exit 0 is a daemon that found another one starting: the socket is still worth waiting for.
    child.on("exit", (code) => {
      if (code !== 0) failed = true;
    });
    child.unref();
    return { failed: () => failed };
  } finally {
    if (typeof stderr === "number") fs.closeSync(stderr);
  }
}

/** A daemon being started: whether it already failed (exited non-zero, or could not be spawned). */
export interface StartedDaemon {
  failed(): boolean;
}
