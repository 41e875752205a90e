import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { daemonTest } from "./support/daemon-kit.js";

/**
 * The daemon's socket: a private folder, a private socket, no TCP listener; other users cannot
 * connect, and a window never uses a socket that is not private (docs/daemon.md).
 */
async function running() {
  const { model, kit } = await daemonTest();
  const window = await kit.window(model);
  const dir = path.join(kit.home, "daemon");
  const socket = path.join(dir, readdirSync(dir).find((n) => n.endsWith(".sock")) as string);
  return { model, kit, window, dir, socket };
}

/** Connects to `socket` as `uid` (via setpriv) and prints "connected" or the error code. */
function connectAs(uid: number | undefined, socket: string): string {
  const script = `require("net").connect(${JSON.stringify(socket)}).on("connect",()=>{console.log("connected");process.exit(0)}).on("error",(e)=>{console.log(e.code);process.exit(0)})`;
  const command =
    uid === undefined
      ? [process.execPath, "-e", script]
      : ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", process.execPath, "-e", script];
  const result = spawnSync(command[0] as string, command.slice(1), { encoding: "utf8", timeout: 10_000 });
  return `${result.stdout}${result.stderr}`.trim();
}

const root = process.getuid?.() === 0;
const NOBODY = 65534;

describe("the daemon's socket", () => {
  it("lives in a 0700 folder of ours as a 0600 socket, and the daemon listens on no TCP port", async () => {
    const { dir, socket, kit } = await running();
    const folder = lstatSync(dir);
    expect(folder.isDirectory()).toBe(true);
    expect(folder.uid).toBe(process.getuid?.());
    expect(folder.mode & 0o777).toBe(0o700);
    const sock = lstatSync(socket);
    expect(sock.isSocket()).toBe(true);
    expect(sock.uid).toBe(process.getuid?.());
    expect(sock.mode & 0o777).toBe(0o600);
    // The daemon's open sockets are all Unix sockets: none of its fds is a TCP socket in
    // /proc/net/tcp{,6} listening (state 0A).
    const pid = kit.daemonPid() as number;
    const inodes = readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        const link = execFileSync("readlink", [`/proc/${pid}/fd/${fd}`], { encoding: "utf8" }).trim();
        return /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? [];
      } catch {
        return [];
      }
    });
    expect(inodes.length).toBeGreaterThan(0);
    const listening = ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((table) =>
      execFileSync("cat", [table], { encoding: "utf8" })
        .split("\n")
        .slice(1)
        .map((row) => row.trim().split(/\s+/))
        .filter((cols) => cols[3] === "0A")
        .map((cols) => cols[9]),
    );
    expect(inodes.filter((inode) => listening.includes(inode))).toEqual([]);
  });

  it("the daemon keeps the key it was started with out of its /proc environ, as the in-process agent does", async () => {
    const { kit } = await running();
    const pid = kit.daemonPid() as number;
    // The kit's windows pass OPENAI_API_KEY=sk-test; the daemon got it from the first one.
    expect(readFileSync(`/proc/${pid}/environ`, "utf8")).not.toContain("sk-test");
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toContain("daemon");
  });

  it("re-closes a daemon folder that was opened up", async () => {
    const { dir, kit, model } = await running();
    await kit.cleanup();
    chmodSync(dir, 0o755);
    await kit.window(model);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it.skipIf(!root)(
    "refuses a connection from another user (as nobody; skipped unless the tests run as root)",
    async () => {
      const { socket, kit } = await running();
      // Only the daemon's own folder and socket stand in the way: the temp home is opened up.
      chmodSync(kit.home, 0o755);
      expect(connectAs(undefined, socket)).toBe("connected");
      expect(connectAs(NOBODY, socket)).toBe("EACCES");
      // The socket's own mode holds even where the folder lets others through.
      chmodSync(path.dirname(socket), 0o711);
      expect(connectAs(NOBODY, socket)).toBe("EACCES");
      chmodSync(path.dirname(socket), 0o700);
    },
  );

  it("a window never uses a socket others could reach: it serves the editor in-process instead", async () => {
    const { socket, kit, model } = await running();
    chmodSync(socket, 0o666);
    const other = await kit.window(model);
    const { sessionId } = await other.acp.request(methods.agent.session.new, {
      cwd: kit.cwd,
      mcpServers: [],
    });
    model.reply({ text: "Served in-process." });
    expect((await other.prompt(sessionId, "hi")).stopReason).toBe("end_turn");
    expect(other.agent.stderr()).toMatch(
      /not a private socket of this user; refusing to use it; serving this window in-process/,
    );
    chmodSync(socket, 0o600);
  });
});
