import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const HIDDEN = ["bwrap", "tmux", "nvim", "rg"];
// A sandbox test and ripgrep's: small, and each skips for a different program.
const FILES = ["test/sandbox-escalation.test.ts", "test/fs-grep.test.ts"];

function runWithout(env: Record<string, string>) {
  const child = spawn("bash", ["scripts/test-without.sh", ...HIDDEN, "--", ...FILES], {
    cwd: ROOT,
    env: { ...process.env, OI_TEST_REUSE_DIST: "1", NO_COLOR: "1", FORCE_COLOR: "0", CI: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise<{ code: number | null; output: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, output })),
  );
}

describe("the suite on a machine without bubblewrap, tmux, Neovim and ripgrep", () => {
  it("passes, skipping what needs them, and says what it skipped", async () => {
    const { code, output } = await runWithout({});
    expect(output).toMatch(/Skipped for missing programs: 3 tests \((bwrap 1, rg 2|rg 2, bwrap 1)\)/);
    expect(code, output).toBe(0);
  });

  it("fails with CI=true, naming the missing program", async () => {
    const { code, output } = await runWithout({ CI: "true" });
    expect(code).not.toBe(0);
    expect(output).toContain("not on PATH: bwrap (apt install bubblewrap");
    expect(output).toContain("not on PATH: rg (apt install ripgrep");
  });
});
