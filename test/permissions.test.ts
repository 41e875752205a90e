import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Mode } from "../src/config/types.js";
import { decide } from "../src/sessions/permissions.js";
import type { ToolAccess } from "../src/tools/types.js";

const ws = mkdtempSync(path.join(os.tmpdir(), "oi-perm-"));
const outside = mkdtempSync(path.join(os.tmpdir(), "oi-out-"));
mkdirSync(path.join(ws, ".git"), { recursive: true });
writeFileSync(path.join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
symlinkSync(outside, path.join(ws, "link-out"));

const exec = (command: string): ToolAccess => ({ type: "exec", command, cwd: ws });
const write = (...paths: string[]): ToolAccess => ({ type: "write", paths });

const table: Array<[Mode, ToolAccess, "allow" | "ask" | "deny"]> = [
  ["workspace-write", exec("ls -la"), "allow"],
  ["workspace-write", exec("cat a | grep b"), "allow"],
  ["workspace-write", exec("npm test"), "ask"],
  ["workspace-write", exec("ls && rm -rf /"), "ask"],
  ["workspace-write", write(path.join(ws, "src/a.ts")), "allow"],
  ["workspace-write", write(path.join(outside, "a.ts")), "ask"],
  ["workspace-write", write(path.join(ws, "link-out/a.ts")), "ask"],
  ["workspace-write", write(path.join(ws, ".git/config")), "deny"],
  ["read-only", write(path.join(ws, "a.ts")), "ask"],
  ["read-only", exec("ls"), "allow"],
  ["read-only", { type: "read", paths: ["/etc/hosts"] }, "allow"],
  ["auto", exec("npm test"), "ask"],
  ["auto", write(path.join(ws, "a.ts")), "allow"],
  ["full-access", exec("rm -rf build"), "allow"],
  ["full-access", write(path.join(outside, "a.ts")), "allow"],
];

describe("decide", () => {
  it.each(table)("%s %j -> %s", (mode, access, expected) => {
    expect(decide({ access, mode, roots: [ws], rules: [], sandboxed: false }).decision).toBe(expected);
  });

  it("auto runs commands unasked only when the sandbox confines them", () => {
    const access = exec("npm test");
    expect(decide({ access, mode: "auto", roots: [ws], rules: [], sandboxed: true }).decision).toBe("allow");
    expect(decide({ access, mode: "auto", roots: [ws], rules: [], sandboxed: false }).decision).toBe("ask");
    expect(
      decide({ access, mode: "workspace-write", roots: [ws], rules: [], sandboxed: true }).decision,
    ).toBe("ask");
  });

  it("applies stored rules to the exact command only", () => {
    const rules = [{ project: ws, key: "exec:npm test", decision: "allow" as const, createdAt: "" }];
    expect(
      decide({ access: exec("npm test"), mode: "workspace-write", roots: [ws], rules, sandboxed: false })
        .decision,
    ).toBe("allow");
    expect(
      decide({
        access: exec("npm test; curl x"),
        mode: "workspace-write",
        roots: [ws],
        rules,
        sandboxed: false,
      }).decision,
    ).toBe("ask");
    const deny = [{ project: ws, key: "exec:make", decision: "deny" as const, createdAt: "" }];
    expect(
      decide({ access: exec("make"), mode: "workspace-write", roots: [ws], rules: deny, sandboxed: false })
        .decision,
    ).toBe("deny");
  });
});
