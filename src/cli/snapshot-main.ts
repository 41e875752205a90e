/**
 * Entry point of the V8 start-up snapshot (`dist/snapshot.blob`, built by scripts/build.mjs).
 * Evaluating the bundled code — the ACP SDK, zod schemas, harness prompts — happens once at
 * build time; a daemon started from the snapshot begins with all of it already in its heap.
 * Only this file knows it runs from a snapshot: what cannot live in a snapshot (the native
 * SQLite addon; scripts/lazy-require.mjs) is loaded at run time from the node_modules next to
 * dist/.
 */
import { Readable, Writable } from "node:stream";
import { format, parseArgs } from "node:util";
import { startupSnapshot } from "node:v8";
import { builtinHarnesses, findHarness } from "../harnesses/harness-list.js";
import { COMMANDS } from "./commands.js";
import { main } from "./main.js";

// Evaluate every command's code now, while the snapshot is built, not at each start.
for (const command of Object.values(COMMANDS)) void command.load();
// The default harness too; the others are evaluated when a session first uses one, so a daemon
// that never does holds none of them (docs/performance.md).
void findHarness(builtinHarnesses(), "codex")?.load();
// Node loads some of its own modules on first use and compiles them then: the argument parser
// and the web streams behind `serveStdio` would be compiled at every start. Load them into the
// snapshot.
parseArgs({ args: [], strict: false });
Readable.toWeb(new Readable({ read() {} }));
Writable.toWeb(new Writable({ write: (_chunk, _encoding, done) => done() }));

startupSnapshot.setDeserializeMainFunction(async () => {
  // stdout carries the ACP protocol: a stray console call in a dependency goes to stderr.
  for (const level of ["log", "info", "debug", "trace", "dir", "table"] as const) {
    console[level] = (...args: unknown[]) => process.stderr.write(`${format(...args)}\n`);
  }
  // Exit explicitly: idle sockets or timers of a finished run must not keep the process alive.
  process.exit(await main(process.argv.slice(1)));
});
