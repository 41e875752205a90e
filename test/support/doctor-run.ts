import { spawn } from "node:child_process";
import { TEST_CEILING } from "./ceiling.js";
import { BIN } from "./spawn-agent.js";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `bin/interpreter.js <args>` as a user would, with a clean environment: HOME and
 * INTERPRETER_HOME set to `home`, PATH kept (bwrap, node), plus `env`.
 */
export function runCli(
  args: string[],
  options: { home: string; cwd?: string; env?: Record<string, string>; input?: string },
): Promise<CliResult> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? options.home,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.home,
      INTERPRETER_HOME: options.home,
      ...TEST_CEILING,
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** The `--json` report of `interpreter doctor`, by check id. */
export interface DoctorJson {
  ok: boolean;
  checks: Array<{
    id: string;
    title: string;
    status: "ok" | "warn" | "fail" | "skip";
    detail: string;
    fix?: string;
  }>;
}

export function checkById(report: DoctorJson, id: string) {
  const check = report.checks.find((c) => c.id === id);
  if (!check) throw new Error(`no check '${id}' in ${report.checks.map((c) => c.id).join(", ")}`);
  return check;
}
