import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { spawnerPath } from "../src/tools/exec/spawner/spawner-path.js";
import { createSandboxedExec } from "../src/tools/sandbox/sandboxed-exec.js";
import { CANARIES, inHelper, setupBattery } from "./sandbox-battery.js";

// CI installs bubblewrap (.ci/run): there a missing or broken bwrap fails these tests instead
// of skipping them. Elsewhere they skip with the probe's reason.
const probe = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
const status = await probe.status();
probe.dispose();
const run = status.available || Boolean(process.env.CI);
const isRoot = process.getuid?.() === 0;

it.skipIf(!run)("bubblewrap starts the sandbox here (required when CI is set)", () => {
  expect(status, status.available ? "" : status.reason).toMatchObject({ available: true, notes: [] });
});

// Each command in a sandbox of its own, then forked by a confined helper per sandbox (which
// runs the dist/spawner.js the test setup built).
const helperScript = (helper: boolean) => (helper ? spawnerPath() : undefined);
const VARIANTS = [
  { name: "", helper: false },
  { name: " (confined helper)", helper: true },
];

for (const variant of VARIANTS) {
  describe.skipIf(!run)(
    `escape battery in process (the daemon's environment holds 20 canaries)${variant.name}`,
    async () => {
      if (!run) return; // a skipped suite's body still runs: build no fixture for it
      const battery = await setupBattery({ ...process.env, ...CANARIES }, helperScript(variant.helper));
      afterAll(() => battery.close());
      if (variant.helper) {
        it("runs the commands in a confined helper (root only: it needs a pids cgroup)", async () => {
          expect(await inHelper(battery)).toBe(isRoot);
        });
      }
      for (const check of battery.checks) it(`${check.id}: ${check.title}`, () => check.run());
    },
  );
}

/**
 * The same battery in a separate daemon stand-in whose own environment (its /proc/<pid>/environ)
 * holds the canaries: as root, like CI, and as nobody through setpriv, like a user's daemon.
 */
describe.skipIf(!run)("escape battery in a daemon process", () => {
  const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  let scratch = "";
  let runner = "";
  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), "oi-sbx-runner-"));
    runner = path.join(scratch, "runner.mjs");
    await build({
      stdin: {
        contents: `import { setupBattery, runAll, inHelper } from "./test/sandbox-battery.ts";
const battery = await setupBattery(process.env, process.argv[2] || undefined);
const helper = await inHelper(battery);
const results = await runAll(battery);
await battery.close();
process.stdout.write(JSON.stringify({ uid: process.getuid(), helper, results }));`,
        resolveDir: ROOT,
        loader: "ts",
      },
      outfile: runner,
      bundle: true,
      format: "esm",
      platform: "node",
      logLevel: "warning",
    });
    chmodSync(scratch, 0o755);
    chmodSync(runner, 0o644);
  });

  const users = [
    { name: "root", prefix: [] as string[], skip: false },
    {
      name: "nobody (setpriv --reuid=65534)",
      prefix: ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"],
      // Switching user needs root; CI runs as root, so there this never skips.
      skip: !isRoot,
    },
  ];
  for (const [user, variant] of users.flatMap((u) => VARIANTS.map((v) => [u, v] as const))) {
    describe.skipIf(user.skip)(`as ${user.name}${variant.name}`, () => {
      let report: { uid: number; helper: boolean; results: { id: string; title: string; error?: string }[] };
      beforeAll(async () => {
        const [file, ...args] = [
          ...user.prefix,
          process.execPath,
          runner,
          helperScript(variant.helper) ?? "",
        ];
        const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent", ...CANARIES };
        report = JSON.parse(await output(file!, args, env));
      }, 120_000);

      it("ran every check as that user", () => {
        expect(report.uid).toBe(user.skip || user.prefix.length === 0 ? process.getuid?.() : 65534);
        expect(report.results.map((r) => r.id)).toEqual([
          "S01",
          "S02",
          "S03",
          "S04",
          "S05",
          "S06",
          "S07",
          "S08",
          "S09",
          "S10",
          "S11",
          "S12",
          "K01",
          "W01",
          "X02",
          "X05",
        ]);
      });
      // The helper needs a pids cgroup, which only root can make here: nobody's commands each
      // get a sandbox of their own.
      it(`ran the commands ${variant.helper && user.prefix.length === 0 ? "in" : "without"} a confined helper`, () => {
        expect(report.helper).toBe(variant.helper && user.prefix.length === 0 && isRoot);
      });
      it("every escape attempt failed and every allowed action worked", () => {
        expect(report.results.filter((r) => r.error)).toEqual([]);
      });
    });
  }
});

function output(file: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${file} exited ${code}: ${stderr}${stdout}`)),
    );
  });
}
