import { realpathSync } from "node:fs";
import path from "node:path";
import type { Mode } from "../config/types.js";
import type { PermissionRule } from "../store/types.js";
import { isKnownReadOnly } from "../tools/exec/safe-command.js";
import type { ToolAccess } from "../tools/types.js";

export type Decision = "allow" | "ask" | "deny";

export interface DecideOptions {
  access: ToolAccess;
  mode: Mode;
  /** Commands run confined (bubblewrap available and a sandboxed mode). */
  sandboxed: boolean;
  roots: string[];
  rules: PermissionRule[];
  /** The session's plan file: the one file plan mode lets the model write. */
  planFile?: string;
}

export interface Verdict {
  decision: Decision;
  /** The rule key an "always" answer would store; undefined when nothing can be remembered. */
  ruleKey?: string;
  /** Human wording of what the key covers, for the permission option's name. */
  ruleLabel?: string;
  /** Why, for logs and for the model when denied. */
  reason: string;
  /** Allowed calls run outside the sandbox (an approved escalation). */
  unconfined?: boolean;
}

/**
 * The mode table of architecture.md. `auto` runs commands unasked only because the sandbox
 * confines them: without a working sandbox it asks exactly like `workspace-write`.
 */
export function decide(options: DecideOptions): Verdict {
  const { access, mode, roots, rules, sandboxed } = options;
  if (mode === "full-access") return { decision: "allow", reason: "full-access mode" };
  if (mode === "plan") return decidePlan(options);
  switch (access.type) {
    case "none":
    case "read":
      return { decision: "allow", reason: "reads are allowed" };
    case "exec": {
      if (access.escalated) {
        // Outside the sandbox: asked every time unless this exact command was always-allowed.
        const why = access.escalated.justification ? ` (${access.escalated.justification})` : "";
        const key = `exec-unconfined:${access.command.trim()}`;
        const stored = rules.find((r) => r.key === key);
        if (stored)
          return { decision: stored.decision, ruleKey: key, reason: "stored rule", unconfined: true };
        return {
          decision: "ask",
          ruleKey: key,
          ruleLabel: `\`${oneLine(access.command)}\` outside the sandbox`,
          reason: `the model asks to run this outside the sandbox${why}`,
          unconfined: true,
        };
      }
      const ruleKey = `exec:${access.command.trim()}`;
      const rule = rules.find((r) => r.key === ruleKey);
      if (rule) return { decision: rule.decision, ruleKey, reason: "stored rule" };
      if (isKnownReadOnly(access.command)) return { decision: "allow", reason: "known read-only command" };
      if (mode === "auto" && sandboxed)
        return { decision: "allow", reason: "auto mode runs confined commands" };
      return {
        decision: "ask",
        ruleKey,
        ruleLabel: `\`${oneLine(access.command)}\``,
        reason: `${mode} mode asks before running commands`,
      };
    }
    case "tool": {
      const ruleKey = `tool:${access.key}`;
      const rule = rules.find((r) => r.key === ruleKey);
      if (rule) return { decision: rule.decision, ruleKey, reason: "stored rule" };
      return {
        decision: "ask",
        ruleKey,
        ruleLabel: access.label,
        reason: `${mode} mode asks before ${access.label}`,
      };
    }
    case "fetch": {
      // A URL can carry workspace content out, so every mode short of full-access asks once per
      // host; the answer "always" is stored for the host, and `[web] allowed_hosts` answers ahead.
      const stored = access.hosts.map((host) => rules.find((r) => r.key === `fetch:${host}`));
      if (stored.some((r) => r?.decision === "deny")) return { decision: "deny", reason: "stored rule" };
      if (access.listed) return { decision: "allow", reason: "the host is in [web] allowed_hosts" };
      const open = access.hosts.filter((_, i) => stored[i]?.decision !== "allow");
      if (open.length === 0) return { decision: "allow", reason: "stored rule" };
      const [only] = open;
      return {
        decision: "ask",
        ...(open.length === 1 ? { ruleKey: `fetch:${only}`, ruleLabel: `fetches from ${only}` } : {}),
        reason: `${mode} mode asks before fetching from ${open.join(", ")}`,
      };
    }
    case "write": {
      const outside = access.paths.filter((p) => !insideRoots(p, roots));
      const intoGit = access.paths.filter((p) => inGitDir(p, roots));
      if (intoGit.length > 0) {
        return { decision: "deny", reason: `file tools never write inside .git (${intoGit.join(", ")})` };
      }
      if (outside.length > 0) {
        const keys = outside.map((p) => `write:${resolveReal(p)}`);
        const stored = keys.map((k) => rules.find((r) => r.key === k));
        if (stored.some((r) => r?.decision === "deny")) return { decision: "deny", reason: "stored rule" };
        if (stored.every((r) => r?.decision === "allow")) return { decision: "allow", reason: "stored rule" };
        return {
          decision: "ask",
          ruleKey: keys.length === 1 ? keys[0] : undefined,
          ruleLabel: outside.length === 1 ? `edits to ${outside[0]}` : undefined,
          reason: "edits outside the workspace always ask",
        };
      }
      if (mode !== "read-only") return { decision: "allow", reason: `${mode} mode allows workspace edits` };
      const rule = rules.find((r) => r.key === "write:workspace");
      if (rule) return { decision: rule.decision, ruleKey: rule.key, reason: "stored rule" };
      return {
        decision: "ask",
        ruleKey: "write:workspace",
        ruleLabel: "edits in this project",
        reason: "read-only mode asks before edits",
      };
    }
  }
}

/**
 * Plan mode runs what only reads: reads, searches, fetches as in any mode, commands the parser
 * knows to be read-only, and writes to the plan file alone. Everything else is refused (never
 * asked), with a reason that tells the model how to go on.
 */
function decidePlan(options: DecideOptions): Verdict {
  const { access, planFile } = options;
  switch (access.type) {
    case "none":
    case "read":
      return { decision: "allow", reason: "reads are allowed" };
    case "fetch":
      return decide({ ...options, mode: "read-only" });
    case "exec":
      if (!access.escalated && isKnownReadOnly(access.command))
        return { decision: "allow", reason: "known read-only command" };
      return { decision: "deny", reason: PLAN_REFUSAL };
    case "write": {
      const plan = planFile ? resolveReal(planFile) : undefined;
      if (plan && access.paths.every((p) => resolveReal(p) === plan))
        return { decision: "allow", reason: "plan mode writes the plan file" };
      return { decision: "deny", reason: PLAN_REFUSAL };
    }
    case "tool":
      return { decision: "deny", reason: PLAN_REFUSAL };
  }
}

const PLAN_REFUSAL =
  "the session is in plan mode, where only read-only tools and commands run until the user approves a plan. Keep exploring, then present the plan for approval";

/** Symlinks are resolved before the check, so a link inside the workspace cannot reach out. */
export function insideRoots(file: string, roots: string[]): boolean {
  const real = resolveReal(file);
  return roots.some((root) => {
    const r = resolveReal(root);
    return real === r || real.startsWith(r.endsWith(path.sep) ? r : r + path.sep);
  });
}

function inGitDir(file: string, roots: string[]): boolean {
  const real = resolveReal(file);
  return roots.some((root) => {
    const rel = path.relative(resolveReal(root), real);
    return !rel.startsWith("..") && rel.split(path.sep)[0] === ".git";
  });
}

/** realpath of the deepest existing ancestor, with the missing tail appended. */
export function resolveReal(file: string): string {
  let current = path.resolve(file);
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(current), ...tail.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(file);
      tail.push(path.basename(current));
      current = parent;
    }
  }
}

function oneLine(command: string): string {
  const line = command.trim().replace(/\s+/g, " ");
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
