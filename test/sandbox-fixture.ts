// Fixture and host-side helpers of the sandbox escape battery (test/sandbox-battery.ts).
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import type net from "node:net";
import path from "node:path";
import type { SandboxedExec } from "../src/tools/sandbox/sandboxed-exec.js";

/** Twenty secrets a daemon's environment might hold (K01). */
export const CANARIES: Record<string, string> = Object.fromEntries(
  [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "NPM_TOKEN",
    "DATABASE_URL",
    "PGPASSWORD",
    "MYAPP_PASSWORD",
    "SLACK_WEBHOOK",
    "SENTRY_DSN",
    "STRIPE_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "HF_TOKEN",
    "DOCKER_AUTH_CONFIG",
    "SSH_AUTH_SOCK",
    "INTERPRETER_API_KEY",
    "AZURE_CLIENT_SECRET",
  ].map((name, i) => [name, `canary-${i}-${name.toLowerCase()}-c4n4ry`]),
);

export const SECRET_FILE = "ssh-private-c4n4ry";

export interface Fixture {
  base: string;
  /** Root 1: a repository (`.git` directory, a nested repository, the daemon's home inside). */
  workspace: string;
  /** The hidden home: canary credentials, a shell rc file, a main repository. */
  home: string;
  /** Root 2, inside the home: a worktree whose `.git` is a file pointing into the home. */
  homeRoot: string;
  /** Not a root, outside the home: must stay untouched. */
  outside: string;
  /** The daemon's own home, inside root 1, hidden. */
  daemonHome: string;
  worktreeGitDir: string;
}

export function makeFixture(base: string): Fixture {
  const workspace = path.join(base, "ws");
  const home = path.join(base, "home");
  const homeRoot = path.join(home, "proj");
  const outside = path.join(base, "outside");
  const daemonHome = path.join(workspace, ".openinterpreter");
  const file = (p: string, text: string) => {
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  file(path.join(workspace, ".git/config"), "[core]\n\tbare = false\n");
  file(path.join(workspace, ".git/HEAD"), "ref: refs/heads/main\n");
  mkdirSync(path.join(workspace, ".git/hooks"), { recursive: true });
  file(path.join(workspace, "sub/nested/.git/config"), "[core]\n");
  file(path.join(workspace, "README.md"), "hello\n");
  file(path.join(daemonHome, "config.toml"), `api_key = "${CANARIES.INTERPRETER_API_KEY}"\n`);
  // A `.git` file a command could have written, pointing at the hidden credentials.
  file(path.join(workspace, "evil/.git"), `gitdir: ${path.join(home, ".ssh")}\n`);
  file(path.join(home, ".ssh/id_rsa"), `${SECRET_FILE}\n`);
  file(path.join(home, ".aws/credentials"), `[default]\naws_secret_access_key = ${SECRET_FILE}\n`);
  file(path.join(home, ".netrc"), `machine example.com password ${SECRET_FILE}\n`);
  file(path.join(home, ".npmrc"), `//registry.npmjs.org/:_authToken=${SECRET_FILE}\n`);
  file(path.join(home, ".bashrc"), "# original\n");
  const mainGit = path.join(home, "main/.git");
  const worktreeGitDir = path.join(mainGit, "worktrees/proj");
  file(path.join(mainGit, "HEAD"), "ref: refs/heads/main\n");
  file(path.join(mainGit, "config"), "[core]\n");
  mkdirSync(path.join(mainGit, "objects"), { recursive: true });
  file(path.join(worktreeGitDir, "HEAD"), "ref: refs/heads/wt\n");
  file(path.join(worktreeGitDir, "commondir"), "../..\n");
  file(path.join(home, "main/notes.txt"), `${SECRET_FILE}\n`);
  file(path.join(homeRoot, ".git"), `gitdir: ${worktreeGitDir}\n`);
  file(path.join(homeRoot, "src.txt"), "worktree file\n");
  file(path.join(outside, "target.txt"), "outside original\n");
  symlinkSync(path.join(outside, "target.txt"), path.join(workspace, "link-out"));
  return { base, workspace, home, homeRoot, outside, daemonHome, worktreeGitDir };
}

/** Host pids of live processes whose command line mentions `marker` (bwrap, shells, sleeps). */
export function survivors(marker: string): number[] {
  return liveCommandLines()
    .filter(([, argv]) => argv.some((arg) => arg.includes(marker)))
    .map(([pid]) => pid);
}

/** Live `sleep <marker><digit>` processes. */
export function sleepers(marker: string): number {
  return liveCommandLines().filter(
    ([, argv]) => argv[0]?.endsWith("sleep") && argv[1]?.length === 8 && argv[1].startsWith(marker),
  ).length;
}

function liveCommandLines(): [number, string[]][] {
  const found: [number, string[]][] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const state = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.[0];
      if (state === "Z") continue;
      found.push([Number(name), readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0")]);
    } catch {
      // gone while we looked
    }
  }
  return found;
}

export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

export function listen(server: net.Server, options: net.ListenOptions): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options, () => resolve(server));
  });
}

export function port(server: net.Server): number {
  const address = server.address();
  assert.ok(address && typeof address === "object");
  return address.port;
}

export interface Check {
  id: string;
  title: string;
  run(): Promise<void>;
}

/** Runs every check; a failure is reported, not thrown. */
export async function runAll(battery: {
  checks: Check[];
}): Promise<{ id: string; title: string; error?: string }[]> {
  const results = [];
  for (const check of battery.checks) {
    try {
      await check.run();
      results.push({ id: check.id, title: check.title });
    } catch (error) {
      results.push({ id: check.id, title: check.title, error: String((error as Error).message ?? error) });
    }
  }
  return results;
}

/** Whether the battery's commands run in a confined helper (the sandbox's pid 1 is the helper). */
export async function inHelper(battery: { fixture: Fixture; sandbox: SandboxedExec }): Promise<boolean> {
  const { fixture: f } = battery;
  // The first commands start the helper and run in a sandbox of their own until it is up.
  for (let attempt = 0; attempt < 20; attempt++) {
    const result = await battery.sandbox
      .exec({ mode: "workspace-write", roots: [f.workspace, f.homeRoot] })
      .run({
        command: "tr '\\0' ' ' </proc/1/cmdline",
        cwd: f.workspace,
        timeoutMs: 20_000,
        signal: new AbortController().signal,
      });
    if (result.output.includes("--confined")) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
