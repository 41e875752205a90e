import os from "node:os";
import { parseCommandArgs } from "./args.js";
import { doctorReportText } from "./doctor/doctor-report.js";
import { runDoctor } from "./doctor/run-doctor.js";
import { VERSION } from "./version.js";

const DOCTOR_OPTIONS = {
  json: { type: "boolean" },
  /** Seconds each network step and MCP server start may take (default 10). */
  timeout: { type: "string" },
} as const;

/**
 * `interpreter doctor [--json] [--timeout S]`: checks what a session needs and says how to fix
 * what does not work. Exit 0 when nothing failed (warnings allowed), 1 otherwise.
 */
export async function doctorCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, DOCTOR_OPTIONS);
  const seconds = args.values.timeout === undefined ? 10 : Number(args.values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    process.stderr.write(
      `interpreter doctor: --timeout expects a number of seconds, got '${args.values.timeout}'\n`,
    );
    return 2;
  }
  const report = await runDoctor({
    env: process.env,
    cli: args.overrides,
    userHome: process.env.HOME ?? os.homedir(),
    cwd: process.cwd(),
    version: VERSION,
    timeoutMs: Math.round(seconds * 1000),
  });
  process.stdout.write(args.values.json ? `${JSON.stringify(report, null, 2)}\n` : doctorReportText(report));
  return report.ok ? 0 : 1;
}
