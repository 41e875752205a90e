import { accessSync, constants, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../../config/load-config.js";
import { type CliOverrides, type Config, ConfigError } from "../../config/types.js";
import { openStore } from "../../store/open-store.js";
import { type Check, fail, ok, warn } from "./check.js";

/** package.json `engines.node`; a test keeps the two in step. */
export const MIN_NODE = "20.19.0";

export function nodeCheck(version: string = process.versions.node): Check {
  const title = "Node.js";
  if (compareVersions(version, MIN_NODE) >= 0)
    return ok("node", title, `v${version} (needs ${MIN_NODE} or newer)`);
  return fail(
    "node",
    title,
    `v${version} is older than ${MIN_NODE}, the oldest Node this daemon supports`,
    "Install Node 20.19 or newer (e.g. `nvm install 22`, or your distribution's nodejs package), then run interpreter with it.",
  );
}

/** The home folder exists (or can be created) and takes a new file. */
export function homeCheck(home: string): Check {
  const title = "Home folder";
  const fixPerm = `Make ${home} writable for this user (\`chmod u+rwx ${home}\`), or point INTERPRETER_HOME at a folder you own.`;
  if (!existsSync(home)) {
    const parent = nearestExisting(home);
    try {
      accessSync(parent, constants.W_OK);
      return ok("home", title, `${home} does not exist yet; it will be created on first use`);
    } catch {
      return fail("home", title, `${home} does not exist and ${parent} is not writable`, fixPerm);
    }
  }
  if (!statSync(home).isDirectory()) {
    return fail(
      "home",
      title,
      `${home} is not a folder`,
      `Move the file away, or set INTERPRETER_HOME to another folder.`,
    );
  }
  try {
    rmSync(mkdtempSync(path.join(home, ".doctor-")), { recursive: true, force: true });
    return ok("home", title, `${home} is writable`);
  } catch (error) {
    return fail("home", title, `cannot write in ${home}: ${(error as Error).message}`, fixPerm);
  }
}

/** Opens the database as the daemon does (quarantining a corrupt file) and runs `PRAGMA integrity_check`. */
export function databaseCheck(home: string): Check {
  const title = "Database";
  const file = path.join(home, "openinterpreter.db");
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore({ path: file });
  } catch (error) {
    return fail(
      "database",
      title,
      `cannot open ${file}: ${(error as Error).message}`,
      "Check the file's permissions and free disk space; a file written by a newer version needs that version.",
    );
  }
  try {
    const problems = store.integrityCheck();
    if (problems.length > 0) {
      return fail(
        "database",
        title,
        `${file} failed the integrity check: ${problems.slice(0, 3).join("; ")}`,
        `Stop every interpreter process, move ${file} aside (sessions in it are lost), and start again.`,
      );
    }
    if (store.recovered) {
      return warn(
        "database",
        title,
        `${file} was corrupt; it was moved to ${store.recovered} and a fresh database started`,
        `Earlier sessions are in ${store.recovered}; delete it once you no longer need them.`,
      );
    }
    const sessions = store.listSessions({ limit: 1000, archived: "include" }).sessions.length;
    return ok(
      "database",
      title,
      `${file} passed the integrity check (${sessions >= 1000 ? "1000+" : sessions} sessions)`,
    );
  } finally {
    store.close();
  }
}

/** Loads config.toml and the flags as the daemon does; a `ConfigError` names the file and key. */
export function configCheck(options: {
  env: Record<string, string | undefined>;
  cli: CliOverrides;
  userHome: string;
}): { check: Check; config?: Config } {
  const title = "Config";
  try {
    const config = loadConfig(options);
    const source = existsSync(config.file) ? config.file : `defaults (${config.file} does not exist)`;
    return { check: ok("config", title, `${source} is valid`), config };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const where = error.key ? `key \`${error.key}\` in ${error.file}` : error.file;
    return {
      check: fail(
        "config",
        title,
        error.message,
        `Edit ${where} as the message says, then run \`interpreter doctor\` again.`,
      ),
    };
  }
}

function nearestExisting(dir: string): string {
  let current = path.dirname(dir);
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(".").map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
