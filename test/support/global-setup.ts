import { execFileSync } from "node:child_process";

/** Subprocess tests spawn bin/interpreter.js, which runs dist/: build it once per test run. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
