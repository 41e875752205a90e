import type { SandboxStatus } from "./probe-sandbox.js";

/**
 * One paragraph for the user (`/status`, the once-per-session notice, `interpreter doctor`):
 * whether commands are confined and, when not, why and what `auto` does instead.
 */
export function sandboxSummary(status: SandboxStatus): string {
  if (!status.available) {
    return `Commands are not sandboxed: ${status.reason}. In auto mode every command asks first, as in workspace-write.`;
  }
  const base = `Commands run in a bubblewrap ${status.version} sandbox: no network, writes only inside the workspace, .git read-only, home hidden.`;
  return status.notes.length === 0 ? base : `${base} Weaker here: ${status.notes.join("; ")}.`;
}
