import { writeFileSync } from "node:fs";
import path from "node:path";

/** The task most end-to-end harness tests script: `add` in calc.mjs subtracts. */
export const BUGGY_CALC = "export function add(a, b) {\n  return a - b;\n}\n";

/** test.mjs: prints TESTS PASSED once `add` adds, TESTS FAILED (exit 1) before. */
export const CALC_TEST = [
  'import { add } from "./calc.mjs";',
  'if (add(2, 3) !== 5) { console.log("TESTS FAILED"); process.exit(1); }',
  'console.log("TESTS PASSED");',
  "",
].join("\n");

/** Writes calc.mjs (`calc`, the buggy one unless given) and test.mjs into `cwd`. */
export function writeCalcProject(cwd: string, calc = BUGGY_CALC): void {
  writeFileSync(path.join(cwd, "calc.mjs"), calc);
  writeFileSync(path.join(cwd, "test.mjs"), CALC_TEST);
}
