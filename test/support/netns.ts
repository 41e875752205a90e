import { spawn, spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";

const RELAY = path.resolve("test/support/netns-relay.mjs");

/**
 * The `unshare` flags that give a process a network namespace of its own, with `lo` up, so a
 * test can put a server on a fixed port (Ollama's 11434) without meeting whatever this machine
 * runs there, and can show "nothing on any port" too. Root needs only `-n`; other users
 * need user namespaces (`-r`). A string says why neither works here.
 */
export function netnsFlags(): string[] | string {
  const attempts = process.getuid?.() === 0 ? [["-n"], ["-r", "-n"]] : [["-r", "-n"]];
  for (const flags of attempts) {
    const result = spawnSync("unshare", [...flags, "sh", "-c", "ip link set lo up"], { encoding: "utf8" });
    if (result.status === 0) return flags;
  }
  return "needs a network namespace: `unshare -n` (util-linux) as root or with user namespaces, and `ip` (iproute2)";
}

/**
 * The argv that runs `command` in a fresh network namespace where each `relays` port on
 * 127.0.0.1 forwards to a Unix socket (see `bridge`).
 */
export function inNetns(options: {
  flags: string[];
  relays: Record<number, string>;
  command: string[];
}): string[] {
  const pairs = Object.entries(options.relays).map(([port, socket]) => `${port}=${socket}`);
  const inner = pairs.length > 0 ? [process.execPath, RELAY, ...pairs, "--"] : [];
  return [
    "unshare",
    ...options.flags,
    "sh",
    "-c",
    'ip link set lo up && exec "$@"',
    "sh",
    ...inner,
    ...options.command,
  ];
}

/** A Unix socket at `socketPath` whose connections go to 127.0.0.1:`port` outside the namespace. */
export async function bridge(socketPath: string, port: number): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, resolve);
  });
  return {
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs an argv from `inNetns` to its end with `input` on stdin; its exit code and output. */
export function runToEnd(argv: string[], options: { cwd: string; input?: string }) {
  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.end(options.input ?? "");
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}
