import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Mode } from "../../config/types.js";
import { createLocalExec, type LocalExecOptions } from "../exec/run-command.js";
import { spawnerPath } from "../exec/spawner/spawner-path.js";
import { startChild } from "../exec/spawner/start-child.js";
import type { ExecPort, ExecRequest, ExecResult, Launch } from "../types.js";
import { bwrapArgv } from "./bwrap-argv.js";
import { CgroupTree, endLeftovers } from "./cgroup-tree.js";
import { createGitScanCache } from "./git-scan.js";
import { prepareHelperFiles } from "./helper-files.js";
import { createHelperPool, type HelperPool } from "./helper-pool.js";
import { homeToolchains } from "./home-toolchains.js";
import { launchArgv } from "./launch-argv.js";
import { createPidsCgroup, sweepStaleCgroups } from "./pids-cgroup.js";
import { type ProbeOptions, probeSandbox, type SandboxStatus } from "./probe-sandbox.js";
import { sandboxLayout } from "./sandbox-layout.js";
import { seccompFilter } from "./seccomp-filter.js";

export interface SandboxedExecOptions extends Omit<LocalExecOptions, "env" | "wrap"> {
  /**
   * The filtered environment (`buildChildEnv`) of every command, and of bwrap itself: bwrap's
   * own process is readable inside the sandbox as `/proc/1/environ`, so `--clearenv` would not
   * keep a secret out (security.md §0.3).
   */
  env: Record<string, string>;
  /**
   * What a sandboxed mode does when the probe failed. `run-unconfined`: commands run as they
   * would without a sandbox (the caller has told the user, and `auto` asks like
   * workspace-write). `refuse`: they fail with the probe's reason and never start.
   */
  whenUnavailable: "run-unconfined" | "refuse";
  /** Hidden behind an empty tmpfs; roots inside it are bound back. Default `os.homedir()`. */
  home?: string;
  /**
   * Hidden even when inside a root: pass the daemon's own home (database, config, logs). The
   * user's runtime directory (`/run/user/<uid>`: agent sockets, podman's `auth.json`) is always
   * added.
   */
  hidden?: string[];
  /**
   * Paths under the hidden home bound back read-only. Default `homeToolchains(home, env.PATH)`:
   * the PATH entries in the home and known toolchain directories (`~/.rustup`, `~/.nvm`, …).
   */
  visibleInHome?: string[];
  /** Replaces `probeSandbox` (tests). Called at most once. */
  probe?: (options: ProbeOptions) => Promise<SandboxStatus>;
  /** Where the seccomp program is written (a private directory is made inside). Default `os.tmpdir()`. */
  scratchDir?: string;
  /**
   * Fork sandboxed commands in one confined spawn helper per sandbox (confined-helper.ts)
   * instead of starting bubblewrap for each. Only where a pids cgroup can be made (it bounds
   * and ends each command's tree); elsewhere, for network escalations and `launch`, and while
   * the session's helper starts, each command still gets a sandbox of its own. Default false
   * here; the runtime passes `[sandbox] per_session_helper`, which is on unless turned off.
   */
  perSessionHelper?: boolean;
  /** The spawn helper program the confined helper runs. Default `spawnerPath()`. */
  helperScript?: string;
  /** How long a session's helper waits for its next command before it stops. Default 5 minutes. */
  helperIdleMs?: number;
}

/** What confines one command. Built from the session's state at the time of the call. */
export interface ExecPolicy {
  mode: Mode;
  /** The session's workspace roots: cwd first, then additional directories. */
  roots: string[];
  /** Share the host network for this call (an approved network escalation); still confined. */
  network?: boolean;
  /** An approved escalation: this call runs outside the sandbox. */
  escalated?: boolean;
  /** The session the call belongs to: its confined helper stops with it (`release`). */
  session?: string;
}

export interface SandboxedExec {
  /** Probes on first use, then always the same answer. Never rejects. */
  status(): Promise<SandboxStatus>;
  /** Whether a command under `policy` runs inside the sandbox (what `auto` may rely on). */
  confines(policy: ExecPolicy): Promise<boolean>;
  /** An exec port for calls under `policy`. Cheap: build one per tool context. */
  exec(policy: ExecPolicy): ExecPort;
  /**
   * A turn is about to run under `policy`: starts the session's confined helper for it in the
   * background, so that its first command need not get a sandbox of its own (a model takes
   * longer to ask for one than the helper takes to start). A no-op where no helper would be
   * used; never fails.
   */
  warm(policy: ExecPolicy): void;
  /** The session closed: its confined helper stops once its commands are done. */
  release(session: string): void;
  /** Removes the seccomp program's file; sandboxed calls after this are refused. */
  dispose(): void;
}

/**
 * A session's confined helper stops after this long without a command: a session left open in
 * a window nobody types in holds no node process, and its next turn starts one again (in the
 * background: `warm`).
 */
const HELPER_IDLE_MS = 5 * 60_000;

/** Processes one sandboxed command may have at once (its whole tree). */
export const PIDS_MAX = 512;

/**
 * The exec port behind every command: `read-only`, `workspace-write` and `auto` run inside
 * bubblewrap (workspace roots writable except in read-only, `.git` read-only, home hidden, no
 * network), `full-access` and approved escalations run as plain child processes. The sandbox
 * confines; it does not decide: asking the user stays with the permission table.
 */
export function createSandboxedExec(options: SandboxedExecOptions): SandboxedExec {
  const { env, whenUnavailable, probe = probeSandbox, scratchDir = os.tmpdir(), ...rest } = options;
  const { home = os.homedir(), hidden: hiddenOption = [], visibleInHome, ...others } = rest;
  const { perSessionHelper = false, helperScript, helperIdleMs = HELPER_IDLE_MS, ...local } = others;
  const hidden = [...hiddenOption, `/run/user/${process.getuid?.() ?? 0}`];
  const visible = visibleInHome ?? homeToolchains(home, env.PATH ?? "");
  const unconfined = createLocalExec({ ...local, env });
  // Inside, /tmp is a private tmpfs; a TMPDIR elsewhere would be read-only or hidden.
  const sandboxEnv = { ...env, TMPDIR: "/tmp" };
  let filterDir: string | undefined;
  let ready: Promise<Prepared> | undefined;
  let disposed = false;
  // Groups are numbered from a random start: two sandboxes in one process must not collide.
  let runs = randomInt(2 ** 40);
  let swept = false;
  let groupsWork: boolean | undefined;
  const canGroup = async () => {
    const probe = await newCgroup();
    probe?.release();
    return probe !== undefined;
  };
  const newCgroup = () =>
    createPidsCgroup({ name: `openinterpreter-${process.pid}-${++runs}`, max: PIDS_MAX });
  // The `.git` scan of a root is redone only when a directory it listed has changed.
  const gitScanCache = createGitScanCache();

  const removeFilter = () => {
    if (filterDir !== undefined) rmSync(filterDir, { recursive: true, force: true });
    filterDir = undefined;
  };

  const prepare = () =>
    (ready ??= (async (): Promise<Prepared> => {
      let seccompFile: string | undefined;
      const filter = seccompFilter();
      if (filter || perSessionHelper) {
        try {
          filterDir = mkdtempSync(path.join(scratchDir, "oi-sandbox-"));
          seccompFile = filter && path.join(filterDir, "seccomp.bpf");
          if (filter && seccompFile) writeFileSync(seccompFile, filter, { mode: 0o400 });
        } catch (error) {
          removeFilter();
          const reason = `cannot write the seccomp program in ${scratchDir}: ${(error as Error).message}`;
          return { status: { available: false, reason } };
        }
      }
      const status = await probe({ env, seccompFile, spawn: local.spawn }).catch((error: unknown) => ({
        available: false as const,
        reason: `sandbox probe failed: ${String(error)}`,
      }));
      if (status.available && !disposed) {
        const files =
          perSessionHelper && filterDir
            ? prepareHelperFiles(filterDir, helperScript ?? spawnerPath())
            : undefined;
        const pool =
          files &&
          createHelperPool({
            // Forked by the daemon itself, once per helper, in the background: through the
            // spawn helper, every frame of every command would cross one more process.
            spawn: startChild,
            bwrap: status.bwrap,
            env: sandboxEnv,
            files,
            makeCgroup: newCgroup,
            idleMs: helperIdleMs,
            ...(seccompFile ? { seccompFile } : {}),
          });
        return { status, seccompFile, ...(pool ? { pool } : {}) };
      }
      removeFilter(); // no sandbox will use it (or dispose() came first)
      return { status };
    })());

  const sandboxed = (policy: ExecPolicy) => policy.mode !== "full-access" && policy.escalated !== true;

  /** The session's helper for `flags`, where commands under `policy` would use one. */
  const helperFor = async (policy: ExecPolicy, flags: string[], pool: HelperPool | undefined) => {
    // Without a pids cgroup a command's tree in a helper could be neither bounded nor ended.
    groupsWork ??= await canGroup();
    return pool !== undefined && policy.network !== true && groupsWork
      ? pool.helper(flags, policy.session ?? "")
      : undefined;
  };

  const flagsFor = async (
    policy: ExecPolicy,
    cwd: string,
    status: SandboxStatus & { available: true },
    chdir = true,
  ) => {
    const layout = await sandboxLayout({ roots: policy.roots, cwd, home, hidden, visible, gitScanCache });
    const flags = bwrapArgv({
      roots: layout.roots,
      mode: policy.mode === "read-only" || policy.mode === "plan" ? "read-only" : "workspace-write",
      network: policy.network === true,
      home: layout.home,
      hidden: layout.hidden,
      readOnly: layout.readOnly,
      ...(chdir ? { cwd: layout.cwd } : {}),
      disableUserns: status.disableUserns,
    });
    return { flags, cwd: layout.cwd };
  };

  const launchConfined = async (
    policy: ExecPolicy,
    request: { command: string[]; cwd: string },
  ): Promise<Launch | { refused: string }> => {
    const { status, seccompFile } = await prepare();
    if (disposed) return { refused: "sandbox shut down, command not run" };
    if (!status.available) {
      if (whenUnavailable === "run-unconfined") return unconfined.launch!(request);
      return { refused: `sandbox unavailable, command not run: ${status.reason}` };
    }
    const { flags } = await flagsFor(policy, request.cwd, status);
    const seccomp = seccompFile !== undefined;
    return {
      argv: launchArgv({ bwrap: status.bwrap, flags, seccomp, command: request.command }),
      env: sandboxEnv,
      ...(seccomp ? { fd3File: seccompFile } : {}),
      host: { run: unconfined.run },
    };
  };

  const runConfined = async (policy: ExecPolicy, request: ExecRequest): Promise<ExecResult> => {
    const { status, seccompFile, pool } = await prepare();
    if (disposed) return refused("sandbox shut down, command not run\n");
    if (!status.available) {
      if (whenUnavailable === "run-unconfined") return unconfined.run(request);
      return refused(`sandbox unavailable, command not run: ${status.reason}\n`);
    }
    const { flags, cwd } = await flagsFor(policy, request.cwd, status, false);
    // A fork bomb stops at PIDS_MAX processes where the machine lets us make a pids cgroup.
    if (!swept) sweepStaleCgroups();
    swept = true;
    const helper = await helperFor(policy, flags, pool);
    // Until the session's helper is up (it starts in the background), a sandbox of its own.
    const up = helper?.ready() === true;
    const cgroup = (up ? await helper?.claimCgroup() : undefined) ?? (await newCgroup());
    if (helper && up && cgroup) {
      const exec = createLocalExec({
        ...local,
        env: sandboxEnv,
        spawn: helper.spawn,
        trackIntervalMs: Number.POSITIVE_INFINITY,
        launch: { cgroupProcs: cgroup.procs },
        tree: () => new CgroupTree(cgroup.procs, helper.pid),
      });
      try {
        return await exec.run({ ...request, cwd });
      } finally {
        cgroup.release();
      }
    }
    const exec = createLocalExec({
      ...local,
      env: sandboxEnv,
      // --unshare-pid: the command's whole tree lives in a pid namespace that ends with it.
      trackIntervalMs: Number.POSITIVE_INFINITY,
      wrap: (command) =>
        launchArgv({
          bwrap: status.bwrap,
          flags: [...flags, "--chdir", cwd],
          seccomp: seccompFile !== undefined,
          command,
        }),
      launch: { fd3File: seccompFile, cgroupProcs: cgroup?.procs },
    });
    try {
      return await exec.run(request);
    } finally {
      if (cgroup) await endLeftovers(cgroup.procs);
      cgroup?.release();
    }
  };

  return {
    status: async () => (await prepare()).status,
    async confines(policy) {
      return sandboxed(policy) && (await prepare()).status.available && !disposed;
    },
    exec(policy) {
      const frozen: ExecPolicy = { ...policy, roots: [...policy.roots] };
      return {
        run: (request) => (sandboxed(frozen) ? runConfined(frozen, request) : unconfined.run(request)),
        launch: (request) =>
          sandboxed(frozen) ? launchConfined(frozen, request) : unconfined.launch!(request),
      };
    },
    warm(policy) {
      if (!perSessionHelper || !sandboxed(policy)) return;
      void (async () => {
        const { status, pool } = await prepare();
        if (!status.available || disposed) return;
        const { flags } = await flagsFor(policy, policy.roots[0] ?? "/", status, false);
        (await helperFor(policy, flags, pool))?.ready();
      })().catch(() => {});
    },
    release(session) {
      void ready?.then(({ pool }) => pool?.release(session));
    },
    dispose() {
      disposed = true;
      void ready?.then(({ pool }) => pool?.dispose());
      removeFilter();
    },
  };
}

interface Prepared {
  status: SandboxStatus;
  seccompFile?: string;
  /** The confined helpers, with `perSessionHelper` where the helper's files could be made. */
  pool?: HelperPool;
}

function refused(message: string): ExecResult {
  return {
    exitCode: 126,
    signal: null,
    timedOut: false,
    aborted: false,
    durationMs: 0,
    output: message,
    droppedBytes: 0,
    totalBytes: Buffer.byteLength(message),
    totalLines: 1,
  };
}
