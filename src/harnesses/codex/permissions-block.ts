import type { Mode } from "../../config/types.js";

/**
 * Codex's `<permissions instructions>` (developer role; chat servers usually want it in the system
 * prompt; codex-rs `prompts/src/permissions_instructions.rs`): our modes in Codex's vocabulary,
 * sandbox_mode + approval_policy, one sentence for the sandbox, one section for approvals, then
 * the writable roots. The wording is ours; the shape, the names (`sandbox_mode`,
 * `approval_policy`, their values) and the tags are Codex's.
 */
export function permissionsBlock(input: {
  mode: Mode;
  writableRoots?: string[];
  /** False when no OS sandbox works: `auto` then asks like `workspace-write` and says so. */
  sandboxed?: boolean;
}): string {
  const mode = input.mode === "auto" && input.sandboxed === false ? "workspace-write" : input.mode;
  const sections = [SANDBOX[mode], APPROVAL[mode]];
  const roots = [...(input.writableRoots ?? [])].sort();
  if (roots.length > 0 && mode !== "full-access" && mode !== "read-only") {
    const list = roots.map((root) => `\`${root}\``);
    sections.push(
      list.length === 1 ? ` The writable root is ${list[0]}.` : ` The writable roots are ${list.join(", ")}.`,
    );
  }
  return `<permissions instructions>\n${sections.join("\n")}\n</permissions instructions>`;
}

const SANDBOX_PREFIX = "Filesystem sandboxing decides which files your commands may read and write.";
const ESCALATE =
  ' To run one command outside the sandbox (network, files outside the writable roots), call `shell_command` with `sandbox_permissions` set to `"require_escalated"` and a one-sentence `justification`; the user decides.';

const SANDBOX: Record<Mode, string> = {
  "read-only": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`read-only\`: commands may read files but not change them. Network access is restricted.${ESCALATE}`,
  "workspace-write": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read anywhere and write inside \`cwd\` and the \`writable_roots\`; writing anywhere else needs approval. Network access is restricted.${ESCALATE}`,
  auto: `${SANDBOX_PREFIX} \`sandbox_mode\` is \`workspace-write\`: commands may read anywhere and write inside \`cwd\` and the \`writable_roots\`; writing anywhere else needs approval. Network access is restricted.${ESCALATE}`,
  "full-access": `${SANDBOX_PREFIX} \`sandbox_mode\` is \`danger-full-access\`: nothing is sandboxed, every command can touch any file. Network access is enabled.`,
};

const UNLESS_TRUSTED =
  "Approvals are how the user consents to actions beyond what is already allowed. `approval_policy` is `unless-trusted`: apart from a short list of known read-only commands, every command and every file edit is shown to the user for approval before it runs.";

const UNLESS_TRUSTED_EDITS =
  "Approvals are how the user consents to actions beyond what is already allowed. `approval_policy` is `unless-trusted`: apart from a short list of known read-only commands, every command is shown to the user for approval before it runs. File edits inside the writable roots apply without asking.";

const ON_REQUEST = `# Escalation Requests

Commands and file edits run inside the sandbox without asking. Anything the sandbox does not allow is sent to the user for approval first, and the user's answer decides whether it runs.

## When escalation is needed

- A command has to write outside the writable roots (for example a tool that writes to a system cache).
- A command needs the network (installing dependencies, fetching from a registry, calling an API).
- A command opens a GUI application or a browser.
- An important command failed because of the sandbox or with what looks like a sandbox-related network error (DNS resolution, registry access, a failed download): run it again as it is so the user can approve it, rather than working around the restriction.
- You are about to do something destructive the user did not ask for, such as \`rm -rf\` or \`git reset --hard\`: say so first.
- Escalate only when the task needs it, and never try to slip past an approval by using a different tool.`;

const NEVER =
  "`approval_policy` is `never`: commands run without asking the user, and nothing can be escalated. When something fails, the failure comes straight back to you; work with it.";

const APPROVAL: Record<Mode, string> = {
  "read-only": UNLESS_TRUSTED,
  "workspace-write": UNLESS_TRUSTED_EDITS,
  auto: ON_REQUEST,
  "full-access": NEVER,
};
