import path from "node:path";
import { ConfigError } from "./types.js";

/**
 * The daemon's home: `$INTERPRETER_HOME` when set (it must be absolute, so a daemon spawned by an
 * editor from another working directory finds the same home), else `<userHome>/.openinterpreter`.
 * An empty `INTERPRETER_HOME` counts as unset. Throws `ConfigError` for a relative path.
 */
export function resolveHome(env: Record<string, string | undefined>, userHome: string): string {
  const fromEnv = env.INTERPRETER_HOME;
  if (fromEnv === undefined || fromEnv === "") return path.join(userHome, ".openinterpreter");
  if (!path.isAbsolute(fromEnv)) {
    throw new ConfigError(
      `INTERPRETER_HOME must be an absolute path, got ${JSON.stringify(fromEnv)}`,
      "$INTERPRETER_HOME",
      "INTERPRETER_HOME",
    );
  }
  return path.resolve(fromEnv);
}
