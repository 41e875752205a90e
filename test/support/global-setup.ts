import { execFileSync } from "node:child_process";

/** Subprocess tests spawn bin/interpreter(.js), which run dist/ and its snapshot: build once per test run. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
