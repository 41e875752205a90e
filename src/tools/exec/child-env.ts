/**
 * The environment of every command we run, built from an allowlist: secrets in the daemon's
 * environment (API keys, tokens) must never reach a tool, its output, the database or a model
 * request. Nothing is inherited wholesale.
 */
export interface ChildEnvPolicy {
  /**
   * More variables to pass through: exact names or `*` globs (`NODE_*`). A name that looks like
   * a secret passes only when listed here by its exact name, never through a glob.
   */
  include?: string[];
  /** Names or `*` globs never passed, even when allowlisted or included. */
  exclude?: string[];
  /** Set verbatim, last: overrides everything above, including the defaults below. */
  set?: Record<string, string>;
}

const BASE_ALLOWLIST = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_*", "TERM", "TMPDIR", "TZ"];

/** Case-insensitive; applied even to allowlisted names (an `LC_API_TOKEN` stays out). */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i;

/**
 * Always set (unless `policy.set` says otherwise), because commands run without a terminal and
 * without stdin, and their output goes to a model:
 * - `PAGER`, `GIT_PAGER`, `GH_PAGER` = `cat`: a pager would wait for a keypress forever, and
 *   `less` can run shell commands.
 * - `GIT_TERMINAL_PROMPT=0`: git fails instead of waiting for a password nobody can type.
 * - `NO_COLOR=1`: colour codes are noise to a model and cost tokens; most tools already
 *   disable colour on a pipe, this covers the ones that force it.
 * `TERM` defaults to `dumb` and `LANG` to `C.UTF-8` when the parent has neither.
 */
const FORCED: Record<string, string> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  GH_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
  NO_COLOR: "1",
};

const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

export function buildChildEnv(
  parentEnv: Record<string, string | undefined>,
  policy: ChildEnvPolicy = {},
): Record<string, string> {
  const allow = [...BASE_ALLOWLIST, ...(policy.include ?? [])].map(globToRegExp);
  const explicit = new Set((policy.include ?? []).filter((name) => !name.includes("*")));
  const deny = (policy.exclude ?? []).map(globToRegExp);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value === undefined) continue;
    if (!allow.some((re) => re.test(name))) continue;
    if (SECRET_NAME.test(name) && !explicit.has(name)) continue;
    if (deny.some((re) => re.test(name))) continue;
    env[name] = value;
  }
  env.PATH = sanitizePath(env.PATH);
  env.TERM ??= "dumb";
  if (env.LANG === undefined && env.LC_ALL === undefined) env.LANG = "C.UTF-8";
  Object.assign(env, FORCED, policy.set ?? {});
  return env;
}

/**
 * Drops empty and relative entries: an empty entry means "the current directory", which would
 * let a file named `ls` in the workspace run in place of the real one (the read-only
 * classifier relies on program names meaning the system's programs).
 */
function sanitizePath(path: string | undefined): string {
  const entries = (path ?? "").split(":").filter((entry) => entry.startsWith("/"));
  return entries.length > 0 ? entries.join(":") : DEFAULT_PATH;
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}
