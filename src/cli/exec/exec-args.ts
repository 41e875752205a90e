import { MODES, type Mode } from "../../config/types.js";
import { AGENT_OPTIONS, wantsDaemon } from "../agent-source.js";
import { parseCommandArgs } from "../args.js";

/**
 * `exec`'s own flags: ours, plus every shape `codex exec` accepts from the Codex TypeScript SDK
 * (`--sandbox`, `--skip-git-repo-check`, `--output-schema`, `--image`, `--add-dir`, ...).
 */
export const EXEC_OPTIONS = {
  cd: { type: "string", short: "C" },
  mode: { type: "string" },
  "full-auto": { type: "boolean" },
  sandbox: { type: "string", short: "s" },
  "dangerously-bypass-approvals-and-sandbox": { type: "boolean" },
  yolo: { type: "boolean" },
  json: { type: "boolean" },
  "experimental-json": { type: "boolean" },
  "output-last-message": { type: "string", short: "o" },
  image: { type: "string", short: "i", multiple: true },
  "output-schema": { type: "string" },
  "add-dir": { type: "string", multiple: true },
  last: { type: "boolean" },
  "skip-git-repo-check": { type: "boolean" },
  // Accepted for Codex SDK compatibility; they change nothing here.
  "thread-source": { type: "string" },
  "cyber-access-program": { type: "string" },
  color: { type: "string" },
  ...AGENT_OPTIONS,
} as const;

/** Codex `--sandbox` values in our modes: exec never asks, so workspace-write runs commands confined. */
export const SANDBOX_TO_MODE: Record<string, Mode> = {
  "read-only": "read-only",
  "workspace-write": "auto",
  "danger-full-access": "full-access",
};

export interface ExecArgs {
  /** The prompt text; undefined or `-` means read it from stdin. */
  prompt?: string;
  /** A session id to continue, or `last` for the newest one in the directory. */
  resume?: string;
  cd?: string;
  /** Undefined when no flag chose one: exec then uses read-only (or `-c mode=`/`sandbox_mode=`). */
  mode?: Mode;
  json: boolean;
  outputLastMessage?: string;
  images: string[];
  outputSchema?: string;
  addDirs: string[];
  /** `--daemon`: run the turn in the shared daemon rather than in this process. */
  daemon: boolean;
  overrides: ReturnType<typeof parseCommandArgs>["overrides"];
}

/** A usage error: the message, to print before exiting 2. */
export class ExecUsageError extends Error {}

/** Parses `exec` arguments; throws `ExecUsageError` (or parseArgs' `TypeError`) on bad usage. */
export function parseExecArgs(argv: string[]): ExecArgs {
  const { values, positionals, overrides } = parseCommandArgs(argv, EXEC_OPTIONS);
  let words = positionals;
  let resume: string | undefined;
  if (words[0] === "resume") {
    if (values.last) {
      resume = "last";
      words = words.slice(1);
    } else {
      resume = words[1];
      if (!resume) throw new ExecUsageError("resume needs a session id (or --last)");
      words = words.slice(2);
    }
  } else if (values.last) {
    throw new ExecUsageError("--last only goes with resume: interpreter exec resume --last");
  }
  const prompt = words.length > 0 ? words.join(" ") : undefined;
  const daemon = wantsDaemon(values);
  if (typeof daemon === "string") throw new ExecUsageError(daemon);
  return {
    ...(prompt === undefined ? {} : { prompt }),
    ...(resume === undefined ? {} : { resume }),
    ...(values.cd === undefined ? {} : { cd: values.cd }),
    ...modeOf(values),
    json: values.json === true || values["experimental-json"] === true,
    ...(values["output-last-message"] ? { outputLastMessage: values["output-last-message"] } : {}),
    images: values.image ?? [],
    ...(values["output-schema"] ? { outputSchema: values["output-schema"] } : {}),
    addDirs: values["add-dir"] ?? [],
    daemon,
    overrides,
  };
}

/** Precedence: --dangerously-bypass-approvals-and-sandbox, --mode, --sandbox, --full-auto. */
function modeOf(values: {
  mode?: string;
  sandbox?: string;
  "full-auto"?: boolean;
  "dangerously-bypass-approvals-and-sandbox"?: boolean;
  yolo?: boolean;
}): { mode?: Mode } {
  if (values["dangerously-bypass-approvals-and-sandbox"] || values.yolo) return { mode: "full-access" };
  if (values.mode !== undefined) {
    if (!(MODES as readonly string[]).includes(values.mode))
      throw new ExecUsageError(`unknown mode '${values.mode}' (expected ${MODES.join(", ")})`);
    return { mode: values.mode as Mode };
  }
  if (values.sandbox !== undefined) {
    const mode = SANDBOX_TO_MODE[values.sandbox];
    if (!mode)
      throw new ExecUsageError(
        `unknown sandbox '${values.sandbox}' (expected ${Object.keys(SANDBOX_TO_MODE).join(", ")})`,
      );
    return { mode };
  }
  if (values["full-auto"]) return { mode: "auto" };
  return {};
}

/** Whether `-c` pairs set the mode (`mode=` or `sandbox_mode=`), so the configured one applies. */
export function overridesSetMode(pairs: readonly string[]): boolean {
  return pairs.some((pair) => /^\s*(mode|sandbox_mode)\s*=/.test(pair));
}
