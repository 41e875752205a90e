import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { probeSandbox, type SandboxStatus } from "../src/tools/sandbox/probe-sandbox.js";
import { sandboxSummary } from "../src/tools/sandbox/sandbox-summary.js";
import { createSandboxedExec, type ExecPolicy } from "../src/tools/sandbox/sandboxed-exec.js";

// Under /var/tmp, not /tmp: inside the sandbox /tmp is private, so "outside" must be elsewhere.
const dir = mkdtempSync("/var/tmp/oi-sbx-probe-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = buildChildEnv(process.env);
const real = await probeSandbox({ env });
const run = real.available || Boolean(process.env.CI);

/** A stand-in bwrap: prints `version`, then behaves as `body` (a shell script) for the real run. */
function fakeBwrap(name: string, version: string, body: string): string {
  const file = path.join(dir, name);
  writeFileSync(
    file,
    `#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap ${version}"; exit 0; fi\n${body}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe("probeSandbox", () => {
  it.skipIf(!run)("finds bwrap on PATH and starts the sandbox", () => {
    expect(real).toMatchObject({ available: true, disableUserns: true });
    if (!real.available) return;
    expect(real.version).toMatch(/^\d+\.\d+/);
    expect(path.isAbsolute(real.bwrap)).toBe(true);
  });

  it("says bwrap is missing and how to install it when PATH has none", async () => {
    const status = await probeSandbox({ env: { PATH: path.join(dir, "empty-bin") } });
    expect(status.available).toBe(false);
    if (status.available) return;
    expect(status.reason).toMatch(/bubblewrap \(bwrap\) is not on PATH/);
    expect(status.reason).toMatch(/apt install bubblewrap.*dnf install bubblewrap.*pacman -S bubblewrap/);
  });

  it("says so when an injected bwrap path is not executable", async () => {
    const status = await probeSandbox({ env, bwrap: path.join(dir, "no-such-bwrap") });
    expect(status).toMatchObject({
      available: false,
      reason: expect.stringMatching(/not executable at .*no-such-bwrap/),
    });
  });

  it("passes on bwrap's own error when it cannot create namespaces", async () => {
    const bwrap = fakeBwrap(
      "bwrap-nouserns",
      "0.8.0",
      'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1',
    );
    const status = await probeSandbox({ env, bwrap });
    expect(status.available).toBe(false);
    if (status.available) return;
    expect(status.reason).toMatch(
      /bubblewrap 0\.8\.0 cannot start a sandbox here: bwrap: setting up uid map/,
    );
    expect(status.reason).toMatch(/user namespaces may be disabled/);
  });

  it("adapts to a bubblewrap older than 0.8 and says what is weaker", async () => {
    const argsFile = path.join(dir, "old-args");
    const bwrap = fakeBwrap("bwrap-old", "0.6.1", `echo "$@" > ${argsFile}`);
    const status = await probeSandbox({ env, bwrap });
    expect(status).toMatchObject({ available: true, version: "0.6.1", disableUserns: false });
    if (!status.available) return;
    expect(status.notes.join("\n")).toMatch(/predates 0\.8\.0: commands may create nested user namespaces/);
    const args = readFileSync(argsFile, "utf8");
    expect(args).toContain("--unshare-user");
    expect(args).not.toContain("--disable-userns");
  });
});

describe("sandboxSummary", () => {
  it("tells the user what is confined, or why not and what auto does instead", () => {
    const ok = { available: true, version: "0.8.0", bwrap: "/usr/bin/bwrap", disableUserns: true } as const;
    expect(sandboxSummary({ ...ok, notes: [] })).toBe(
      "Commands run in a bubblewrap 0.8.0 sandbox: no network, writes only inside the workspace, .git read-only, home hidden.",
    );
    expect(sandboxSummary({ ...ok, notes: ["a", "b"] })).toMatch(/ Weaker here: a; b\.$/);
    expect(sandboxSummary({ available: false, reason: "bwrap is missing" })).toBe(
      "Commands are not sandboxed: bwrap is missing. In auto mode every command asks first, as in workspace-write.",
    );
  });
});

describe("createSandboxedExec policy", () => {
  const ws = path.join(dir, "ws");
  const outside = path.join(dir, "outside");
  for (const d of [ws, outside]) mkdirSync(d);
  const policy = (p: Partial<ExecPolicy> = {}): ExecPolicy => ({
    mode: "workspace-write",
    roots: [ws],
    ...p,
  });
  const request = (command: string) => ({
    command,
    cwd: ws,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
  });
  const unavailable: SandboxStatus = {
    available: false,
    reason: "bubblewrap (bwrap) is not on PATH; install it",
  };

  it("refuses sandboxed modes when the sandbox is unavailable and told to, and runs nothing", async () => {
    let probes = 0;
    const sandbox = createSandboxedExec({
      env,
      whenUnavailable: "refuse",
      probe: async () => {
        probes++;
        return unavailable;
      },
    });
    const marker = path.join(outside, "refused");
    for (const mode of ["read-only", "workspace-write", "auto"] as const) {
      const result = await sandbox.exec(policy({ mode })).run(request(`: > ${marker}`));
      expect(result.exitCode).toBe(126);
      expect(result.output).toBe(`sandbox unavailable, command not run: ${unavailable.reason}\n`);
      expect(await sandbox.confines(policy({ mode }))).toBe(false);
    }
    expect(existsSync(marker)).toBe(false);
    expect(await sandbox.status()).toEqual(unavailable);
    expect(probes).toBe(1);
    sandbox.dispose();
  });

  it("runs unconfined when the sandbox is unavailable and the caller chose that", async () => {
    const sandbox = createSandboxedExec({
      env,
      whenUnavailable: "run-unconfined",
      probe: async () => unavailable,
    });
    const marker = path.join(dir, "unconfined-ran");
    const result = await sandbox.exec(policy({ mode: "auto" })).run(request(`: > ${marker}`));
    expect(result.exitCode).toBe(0);
    expect(existsSync(marker)).toBe(true);
    sandbox.dispose();
  });

  describe.skipIf(!run)("with real bubblewrap", () => {
    const sandbox = createSandboxedExec({ env, whenUnavailable: "refuse", home: path.join(dir, "home") });
    afterAll(() => sandbox.dispose());

    it("confines the three sandboxed modes and nothing else", async () => {
      for (const mode of ["read-only", "workspace-write", "auto"] as const) {
        expect(await sandbox.confines(policy({ mode }))).toBe(true);
        expect(await sandbox.confines(policy({ mode, escalated: true }))).toBe(false);
      }
      expect(await sandbox.confines(policy({ mode: "full-access" }))).toBe(false);
    });

    it("a write outside the roots fails in auto and succeeds in full-access or when escalated", async () => {
      const target = (name: string) => path.join(dir, name);
      const confined = await sandbox
        .exec(policy({ mode: "auto" }))
        .run(request(`echo x > ${target("auto")}`));
      expect(confined.exitCode).not.toBe(0);
      expect(confined.output).toMatch(/Read-only file system/);
      expect(existsSync(target("auto"))).toBe(false);
      for (const [name, p] of [
        ["full", policy({ mode: "full-access" })],
        ["escalated", policy({ mode: "auto", escalated: true })],
      ] as const) {
        const result = await sandbox.exec(p).run(request(`echo x > ${target(name)}`));
        expect(result.exitCode, result.output).toBe(0);
        expect(existsSync(target(name))).toBe(true);
      }
    });

    it("a workspace under /tmp is bound into the private /tmp; the rest of the host's /tmp is not", async () => {
      const tmpWs = mkdtempSync(path.join(tmpdir(), "oi-sbx-tmpws-"));
      try {
        const result = await sandbox
          .exec({ mode: "workspace-write", roots: [tmpWs] })
          .run({ ...request("echo hi > f && cat f && ls -a /tmp"), cwd: tmpWs });
        expect(result.output).toBe(`hi\n.\n..\n${path.basename(tmpWs)}\n`);
        expect(readFileSync(path.join(tmpWs, "f"), "utf8")).toBe("hi\n");
      } finally {
        rmSync(tmpWs, { recursive: true, force: true });
      }
    });

    it("a dispose()d sandbox refuses instead of running unconfined", async () => {
      const other = createSandboxedExec({ env, whenUnavailable: "run-unconfined" });
      expect((await other.exec(policy()).run(request("true"))).exitCode).toBe(0);
      other.dispose();
      const result = await other.exec(policy()).run(request("true"));
      expect(result).toMatchObject({ exitCode: 126, output: "sandbox shut down, command not run\n" });
    });
  });
});
