import { afterEach, expect } from "vitest";
import { littleCoderHarness } from "../src/harnesses/little-coder/little-coder-harness.js";
import type { ToolContext } from "../src/tools/types.js";
import { harnessContext, tempDir, toolContext, toolRunner } from "./support/harness-fixtures.js";
import { needs } from "./support/requires.js";

let ctx: ToolContext | undefined;
afterEach(async () => {
  await ctx?.background.killAll();
  ctx = undefined;
});

function session() {
  const cwd = tempDir("oi-lc-shell-");
  const opened = littleCoderHarness.open(harnessContext({ cwd }));
  ctx = toolContext(cwd);
  return { cwd, run: toolRunner(opened.tools, ctx) };
}

// The marker the wrapper prints starts on a line of its own, so output that ends with a newline
// is followed by a blank line before the footer, as in the original.
const footer = (exit: number, cwd: string) => `[exit=${exit} cwd=${cwd} timed_out=false backend=tmux-proxy]`;

needs("tmux").describe("little-coder ShellSession in a persistent tmux shell", () => {
  needs("tmux").it(
    "keeps cd and variables between calls and ends each result with exit code and directory",
    async () => {
      const { cwd, run } = session();
      expect(
        await run("ShellSession", { command: "mkdir -p sub && cd sub && export GREETING=hi" }),
      ).toMatchObject({ output: footer(0, `${cwd}/sub`) });
      expect((await run("ShellSession", { command: 'echo "$GREETING from $(basename $PWD)"' })).output).toBe(
        `hi from sub\n\n${footer(0, `${cwd}/sub`)}`,
      );
      // Several lines, quotes and a heredoc reach the shell as written.
      const script = "cat <<'EOF'\nit's a \"test\"\nEOF\nfalse";
      expect((await run("ShellSession", { command: script })).output).toBe(
        `it's a "test"\n\n${footer(1, `${cwd}/sub`)}`,
      );
      expect((await run("ShellSessionCwd", {})).output).toBe(`${cwd}/sub\n\n${footer(0, `${cwd}/sub`)}`);
      // A timeout that is not a number is the default, not a refused call.
      expect((await run("ShellSession", { command: "echo ok", timeout: "soon" })).output).toBe(
        `ok\n\n${footer(0, `${cwd}/sub`)}`,
      );
      expect(await run("ShellSession", { command: "  " })).toEqual({
        output: "Error: command is required",
        isError: true,
      });
    },
    60_000,
  );

  needs("tmux").it(
    "gives up on a command at its timeout (5 s at least) and leaves it running until the reset interrupts it",
    async () => {
      const { cwd, run } = session();
      const started = Date.now();
      const slow = await run("ShellSession", { command: "echo waiting; sleep 30", timeout: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
      expect(slow.output).toBe("waiting\n[exit=-1 cwd=? timed_out=true backend=tmux-proxy]");
      expect(await run("ShellSessionReset", {})).toEqual({
        output: "Session 'default' unstuck and reinitialized.",
      });
      expect((await run("ShellSession", { command: "echo back" })).output).toBe(`back\n\n${footer(0, cwd)}`);
    },
    60_000,
  );
});
