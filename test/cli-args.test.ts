import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { splitCommand } from "../src/cli/args.js";
import { tempDir } from "./support/in-process.js";
import { LAUNCHER } from "./support/spawn-agent.js";

function run(args: string[]) {
  const home = tempDir("oi-cli-");
  return spawnSync(LAUNCHER, args, {
    env: { PATH: process.env.PATH, HOME: home, INTERPRETER_HOME: home },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("command line", () => {
  it("finds the command after global flags that take a value", () => {
    expect(splitCommand(["-m", "qwen3", "exec", "hi"])).toEqual({
      command: "exec",
      rest: ["-m", "qwen3", "hi"],
    });
    expect(splitCommand(["--harness", "pi", "-c", "a=1", "acp"])).toEqual({
      command: "acp",
      rest: ["--harness", "pi", "-c", "a=1"],
    });
    expect(splitCommand(["--chat-completions"])).toEqual({
      command: undefined,
      rest: ["--chat-completions"],
    });
  });

  it("shows a command's own flags with --help, and the command list without one", () => {
    const exec = run(["exec", "--help"]);
    expect(exec.status).toBe(0);
    expect(exec.stdout).toContain("--output-last-message");
    expect(exec.stdout).toContain("Options for every command:");
    const all = run(["--help"]);
    expect(all.stdout).toContain("interpreter doctor");
    expect(all.stdout).not.toContain("--output-last-message");
  });

  it("rejects an unknown flag or command with exit 2 and says which", () => {
    const flag = run(["sessions", "--colour"]);
    expect(flag.status).toBe(2);
    expect(flag.stderr).toContain("interpreter sessions: Unknown option '--colour'");
    const command = run(["-m", "x", "frobnicate"]);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain("unknown command 'frobnicate'");
    expect(command.stdout).toBe("");
  });
});
