// Runs a command in a network namespace of its own with model servers "on their real ports":
// `node netns-relay.mjs 11434=/tmp/x.sock [...] -- command args...` listens on each
// 127.0.0.1:<port> and forwards every connection to the Unix socket, which (unlike loopback)
// is reachable from outside the namespace. Then it runs the command, with the terminal, and
// exits with its exit code.
import { spawn } from "node:child_process";
import net from "node:net";

const args = process.argv.slice(2);
const dash = args.indexOf("--");
if (dash < 1 || dash === args.length - 1) {
  process.stderr.write("usage: netns-relay.mjs PORT=SOCKET... -- command [args...]\n");
  process.exit(2);
}

function relay(port, socketPath) {
  const server = net.createServer((client) => {
    const upstream = net.connect(socketPath);
    client.pipe(upstream).pipe(client);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
}

await Promise.all(
  args.slice(0, dash).map((pair) => {
    const [port, socketPath] = pair.split("=");
    return relay(Number(port), socketPath);
  }),
);
// Ctrl-C in the terminal is the command's to handle; this process only carries bytes.
process.on("SIGINT", () => {});
const [command, ...rest] = args.slice(dash + 1);
const child = spawn(command, rest, { stdio: "inherit" });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
