/**
 * Child process for the store's crash and concurrency tests. It is bundled with esbuild (so it
 * runs our real `src/store` code under plain `node`) and driven by flags:
 *
 *   --db <path> --session <id> --writer <name> [--create] [--count <n>] [--wait] [--batch <max>]
 *
 * Prints `ready` once the store is open, waits for a `go` line on stdin when `--wait` is set,
 * then appends notice events whose text is `<writer>:<i>` and prints `seq <n> ...` after each
 * `append` returns (so every printed seq was committed). `--count 0` appends until killed.
 */
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { openStore } from "../../src/store/open-store.js";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    session: { type: "string" },
    writer: { type: "string", default: "w" },
    create: { type: "boolean", default: false },
    count: { type: "string", default: "0" },
    wait: { type: "boolean", default: false },
    batch: { type: "string", default: "1" },
  },
});
if (!values.db || !values.session) throw new Error("--db and --session are required");
const count = Number(values.count);
const batch = Number(values.batch);

const say = (line: string): Promise<void> =>
  new Promise((resolve, reject) =>
    process.stdout.write(`${line}\n`, (error) => (error ? reject(error) : resolve())),
  );

const store = openStore({ path: values.db });
if (values.create) {
  store.createSession({
    id: values.session,
    cwd: "/work",
    additionalDirectories: [],
    mcpServers: [],
    mode: "auto",
  });
}
await say("ready");
if (values.wait) {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === "go") break;
  lines.close();
}

let i = 0;
for (let n = 0; count === 0 || n < count; n++) {
  const size = 1 + (n % batch);
  const events = Array.from({ length: size }, () => ({
    type: "notice" as const,
    severity: "info" as const,
    text: `${values.writer}:${i++}`,
  }));
  const seqs = store.append(values.session, events);
  await say(`seq ${seqs.join(" ")}`);
}
store.close();
await say("done");
