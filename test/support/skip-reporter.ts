import type { Reporter, TestModule } from "vitest/node";
import { NEEDS_TAG } from "./requires.js";

const TAG = new RegExp(`\\[${NEEDS_TAG} ([^\\]]+)\\]`);

/**
 * Ends the run with one line that counts the tests skipped for a missing system program, by
 * program, so a run on a bare machine says what it did not check.
 */
export default class SkipReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = new Map<string, number>();
    let total = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        if (test.result().state !== "skipped") continue;
        const match = TAG.exec(test.fullName);
        if (!match) continue;
        total += 1;
        for (const part of (match[1] ?? "").split(/\), /)) {
          const program = part.split(" ")[0] ?? part;
          counts.set(program, (counts.get(program) ?? 0) + 1);
        }
      }
    }
    const by = [...counts].map(([program, n]) => `${program} ${n}`).join(", ");
    process.stdout.write(
      total === 0
        ? "\nSkipped for missing programs: none\n"
        : `\nSkipped for missing programs: ${total} ${total === 1 ? "test" : "tests"} (${by}); install them, or run with CI=true to make these skips failures\n`,
    );
  }
}
