import type { Check } from "./check.js";
import type { DoctorReport } from "./run-doctor.js";

const MARK: Record<Check["status"], string> = { ok: "✓", warn: "!", fail: "✗", skip: "-" };

/** The report for a terminal: one line per check, its fix indented under it, a summary last. */
export function doctorReportText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.title.length));
  const pad = " ".repeat(width + 5);
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${MARK[check.status]}  ${check.title.padEnd(width)}  ${indentRest(check.detail, pad)}`);
    if (check.fix) lines.push(`${pad}fix: ${indentRest(check.fix, `${pad}     `)}`);
  }
  const failed = report.checks.filter((c) => c.status === "fail").length;
  const warned = report.checks.filter((c) => c.status === "warn").length;
  lines.push(
    "",
    failed > 0
      ? `${failed} ${failed === 1 ? "problem needs" : "problems need"} fixing${warned ? `, ${warned} ${warned === 1 ? "warning" : "warnings"}` : ""}.`
      : warned > 0
        ? `Ready, with ${warned} ${warned === 1 ? "warning" : "warnings"}.`
        : "Everything works.",
  );
  return `${lines.join("\n")}\n`;
}

function indentRest(text: string, pad: string): string {
  return text.split("\n").join(`\n${pad}`);
}
