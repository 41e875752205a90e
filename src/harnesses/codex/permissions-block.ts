import type { Mode } from "../../config/types.js";
import escalation from "./escalation-requests.md";

/**
 * Codex 0.171's `<permissions instructions>` (the second developer message): one line for the
 * sandbox (`sandbox_mode` and network), then the approval policy, then the writable roots. Our
 * modes in Codex's vocabulary: full-access is `danger-full-access` with approval `never`; every
 * other mode may escalate a command (`on-request`), whose section keeps Codex's headings in our
 * words. Where our mode asks before commands the sandbox would allow, the text says so.
 */
export function permissionsBlock(input: {
  mode: Mode;
  writableRoots?: string[];
  /** False when no OS sandbox works: `auto` then asks like `workspace-write` and says so. */
  sandboxed?: boolean;
}): string {
  const mode = input.mode === "auto" && input.sandboxed === false ? "workspace-write" : input.mode;
  const lines = [SANDBOX[mode]];
  if (mode === "full-access") lines.push(NEVER);
  else lines.push(...(ASKS[mode] ? [ASKS[mode]] : []), escalation.trimEnd());
  const roots = [...(input.writableRoots ?? [])];
  if (roots.length > 0 && (mode === "workspace-write" || mode === "auto")) {
    const list = [...roots, "/tmp"].map((root) => `\`${root}\``).join(", ");
    lines.push(` The writable roots are ${list}.`);
  }
  return `<permissions instructions>\n${lines.join("\n")}\n</permissions instructions>`;
}

const SANDBOX_PREFIX = "Filesystem sandboxing decides which files commands may read and write.";

const SANDBOX: Record<Mode, string> = {
  "read-only": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`read-only\`: commands may read files and nothing else. Network access is restricted.`,
  plan: `${SANDBOX_PREFIX} \`sandbox_mode\` is \`read-only\`: commands may read files and nothing else. Network access is restricted.`,
  "workspace-write": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read any file and change files in \`cwd\` and the \`writable_roots\`; changing files anywhere else needs approval. Network access is restricted.`,
  auto: `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read any file and change files in \`cwd\` and the \`writable_roots\`; changing files anywhere else needs approval. Network access is restricted.`,
  "full-access": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`danger-full-access\`: there is no filesystem sandbox, every command may touch any file. Network access is enabled.`,
};

/** Our read-only and workspace-write modes ask before more than Codex's `on-request` does. */
const ASKS: Partial<Record<Mode, string>> = {
  plan: "Approval policy is currently on-request, and stricter: until the user approves a plan, only commands known to only read run; every other command and every file edit is refused.",
  "read-only":
    "Approval policy is currently on-request, and stricter: apart from commands known to only read, every command and every file edit is shown to the user before it runs.",
  "workspace-write":
    "Approval policy is currently on-request, and stricter: apart from commands known to only read, every command is shown to the user before it runs. File edits inside the writable roots apply without asking.",
};

const NEVER =
  "Approval policy is currently never. Leave out `sandbox_permissions`: nothing is shown to the user for approval, and with no sandbox there is nothing to escalate from.";
