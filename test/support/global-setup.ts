import { execFileSync } from "node:child_process";

/** Subprocess tests spawn bin/interpreter(.js), which run dist/ and its snapshot: build once per test run. */
export default function setup(): void {
  // A run nested in another (test/bare-machine.test.ts) uses the outer run's build: rebuilding
  // under the outer run's subprocess tests would pull dist/ from under them.
  if (process.env.OI_TEST_REUSE_DIST) return;
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
