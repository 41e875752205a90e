import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapArgv } from "../src/tools/sandbox/bwrap-argv.js";
import { homeToolchains } from "../src/tools/sandbox/home-toolchains.js";
import { launchArgv } from "../src/tools/sandbox/launch-argv.js";
import { sandboxLayout } from "../src/tools/sandbox/sandbox-layout.js";
import { seccompFilter } from "../src/tools/sandbox/seccomp-filter.js";

const NAMESPACES = [
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
  "--disable-userns",
  "--assert-userns-disabled",
  "--cap-drop",
  "ALL",
  "--die-with-parent",
  "--new-session",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
];

/** The mount flags after the fixed prefix, as `kind path` strings. */
function mounts(argv: string[]): string[] {
  const rest = argv.slice(NAMESPACES.length - (argv.includes("--unshare-net") ? 0 : 1));
  const out: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i]!;
    if (flag === "--tmpfs" || flag === "--chdir") out.push(`${flag.slice(2)} ${rest[++i]}`);
    else if (flag === "--bind" || flag === "--ro-bind") {
      expect(rest[i + 1]).toBe(rest[i + 2]);
      out.push(`${flag.slice(2)} ${rest[i + 1]}`);
      i += 2;
    } else throw new Error(`unexpected ${flag}`);
  }
  return out;
}

describe("bwrapArgv", () => {
  it("builds the root-safe shape of security.md §0.2", () => {
    const argv = bwrapArgv({
      roots: ["/home/u/proj"],
      mode: "workspace-write",
      network: false,
      home: "/home/u",
      readOnly: ["/home/u/proj/.git"],
      cwd: "/home/u/proj/src",
    });
    expect(argv.slice(0, NAMESPACES.length)).toEqual(NAMESPACES);
    expect(mounts(argv)).toEqual([
      "tmpfs /tmp",
      "tmpfs /home/u",
      "bind /home/u/proj",
      "ro-bind /home/u/proj/.git",
      "chdir /home/u/proj/src",
    ]);
  });

  it("shares the network only when asked, binds roots read-only in read-only mode", () => {
    const argv = bwrapArgv({ roots: ["/srv/a", "/srv/b"], mode: "read-only", network: true });
    expect(argv).not.toContain("--unshare-net");
    expect(argv).toContain("--unshare-user");
    expect(mounts(argv)).toEqual(["tmpfs /tmp", "ro-bind /srv/a", "ro-bind /srv/b"]);
  });

  it("orders mounts parents first, whatever nests in what", () => {
    const argv = bwrapArgv({
      roots: ["/home/u/deep/proj", "/home", "/tmp/scratch"],
      mode: "workspace-write",
      network: false,
      home: "/home/u",
      hidden: ["/home/u/deep/proj/.openinterpreter"],
      readOnly: ["/home/u/deep/proj/.git", "/home/u/main/.git"],
    });
    expect(mounts(argv)).toEqual([
      "tmpfs /tmp",
      // The whole /home is a root, yet the user's home inside it stays hidden…
      "bind /home",
      "tmpfs /home/u",
      "bind /tmp/scratch",
      // …and a root inside the home is bound back, with its own protections on top.
      "bind /home/u/deep/proj",
      "ro-bind /home/u/main/.git",
      "tmpfs /home/u/deep/proj/.openinterpreter",
      "ro-bind /home/u/deep/proj/.git",
    ]);
  });

  it("a root equal to the home exposes the home, the daemon's home inside stays hidden", () => {
    const argv = bwrapArgv({
      roots: ["/root/"],
      mode: "workspace-write",
      network: false,
      home: "/root",
      hidden: ["/root/.openinterpreter"],
    });
    expect(mounts(argv)).toEqual(["tmpfs /tmp", "tmpfs /root", "bind /root", "tmpfs /root/.openinterpreter"]);
  });

  it("skips a home of / and the userns flags for an old bubblewrap; refuses relative paths", () => {
    const argv = bwrapArgv({ roots: [], mode: "read-only", network: false, home: "/", disableUserns: false });
    expect(argv).not.toContain("--disable-userns");
    expect(argv).not.toContain("--assert-userns-disabled");
    expect(argv.filter((a) => a === "--tmpfs")).toHaveLength(1);
    expect(() => bwrapArgv({ roots: ["proj"], mode: "read-only", network: false })).toThrow(/absolute/);
  });
});

describe("launchArgv", () => {
  it("is bwrap itself, told to read the seccomp program from fd 3 when there is one", () => {
    const command = ["/bin/bash", "-c", "ls"];
    expect(launchArgv({ bwrap: "/usr/bin/bwrap", flags: ["--x"], seccomp: false, command })).toEqual([
      "/usr/bin/bwrap",
      "--x",
      "--",
      "/bin/bash",
      "-c",
      "ls",
    ]);
    expect(launchArgv({ bwrap: "/b", flags: ["--x"], seccomp: true, command })).toEqual([
      "/b",
      "--x",
      "--seccomp",
      "3",
      "--",
      "/bin/bash",
      "-c",
      "ls",
    ]);
  });
});

describe("seccompFilter", () => {
  it("is a BPF program for x64 and arm64, nothing for other architectures", () => {
    for (const arch of ["x64", "arm64"]) {
      const filter = seccompFilter(arch)!;
      expect(filter.length % 8).toBe(0);
      // First instruction loads the architecture; the last allows.
      expect(filter.readUInt16LE(0)).toBe(0x20);
      expect(filter.readUInt32LE(4)).toBe(4);
      expect(filter.readUInt32LE(filter.length - 4)).toBe(0x7fff0000);
    }
    expect(seccompFilter("x64")!.equals(seccompFilter("arm64")!)).toBe(false);
    expect(seccompFilter("ia32")).toBeUndefined();
  });
});

describe("homeToolchains", () => {
  it("keeps PATH entries inside the home (not the home itself) and adds toolchain directories", () => {
    const paths = homeToolchains("/home/u", "/home/u/.cargo/bin:/usr/bin:/home/u:/home/u/bin:relative");
    expect(paths).toContain("/home/u/.cargo/bin");
    expect(paths).toContain("/home/u/bin");
    expect(paths).toContain("/home/u/.rustup");
    expect(paths).not.toContain("/home/u");
    expect(paths).not.toContain("/home/u/.cargo");
    expect(paths).not.toContain("/usr/bin");
  });
});

describe("sandboxLayout", () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "oi-layout-")));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (p: string, text = "") => {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), text);
  };
  file("ws/.git/HEAD", "ref: refs/heads/main\n");
  file("ws/a/b/.git/HEAD");
  file("ws/a/b/c/d/.git/HEAD"); // deeper than the default depth
  file("ws/node_modules/x/.git/HEAD");
  file("ws/.hidden/.git/HEAD");
  file("home/main/.git/HEAD");
  mkdirSync(path.join(dir, "home/main/.git/objects"));
  file("home/main/.git/worktrees/wt/HEAD");
  file("home/main/.git/worktrees/wt/commondir", "../..\n");
  file("wt/.git", `gitdir: ${path.join(dir, "home/main/.git/worktrees/wt")}\n`);
  file("home/.ssh/id_rsa", "secret");
  file("ws/evil/.git", "gitdir: ../../home/.ssh\n");
  file("ws/.openinterpreter/config.toml");
  symlinkSync(path.join(dir, "ws"), path.join(dir, "ws-link"));
  const at = (p: string) => path.join(dir, p);

  it("canonicalises roots, drops missing ones, finds .git within the depth limit", async () => {
    const layout = await sandboxLayout({
      roots: [at("ws-link"), at("missing"), at("ws")],
      cwd: at("ws-link/a"),
      home: at("home"),
      hidden: [at("ws/.openinterpreter"), at("nowhere")],
    });
    expect(layout).toEqual({
      roots: [at("ws")],
      cwd: at("ws/a"),
      home: at("home"),
      hidden: [at("ws/.openinterpreter")],
      readOnly: [at("ws/.git"), at("ws/evil/.git"), at("ws/a/b/.git")],
    });
  });

  it("follows a worktree's .git file to its git directory and common directory", async () => {
    const layout = await sandboxLayout({ roots: [at("wt")], cwd: at("wt"), home: at("home") });
    expect(layout.readOnly).toEqual([at("wt/.git"), at("home/main/.git/worktrees/wt"), at("home/main/.git")]);
  });

  it("never follows a pointer into a hidden path, and honours the scan limits", async () => {
    file("ws2/.git", `gitdir: ${at("home/main/.git/worktrees/wt")}\n`);
    const hiddenTarget = await sandboxLayout({
      roots: [at("ws2")],
      cwd: at("ws2"),
      hidden: [at("home/main")],
    });
    expect(hiddenTarget.readOnly).toEqual([at("ws2/.git")]);
    const shallow = await sandboxLayout({ roots: [at("ws")], cwd: at("ws"), gitDepth: 0 });
    expect(shallow.readOnly).toEqual([at("ws/.git")]);
    const deep = await sandboxLayout({ roots: [at("ws")], cwd: at("ws"), gitDepth: 10 });
    expect(deep.readOnly).toContain(at("ws/a/b/c/d/.git"));
    const limited = await sandboxLayout({ roots: [at("ws")], cwd: at("ws"), gitScanLimit: 1 });
    expect(limited.readOnly).toEqual([at("ws/.git")]);
  });

  it("binds back existing toolchain paths read-only", async () => {
    file("home/.rustup/toolchains/x");
    const layout = await sandboxLayout({
      roots: [],
      cwd: dir,
      home: at("home"),
      visible: [at("home/.rustup"), at("home/.nvm")],
    });
    expect(layout.readOnly).toEqual([at("home/.rustup")]);
  });
});
