#!/usr/bin/env node
// stdout carries the ACP protocol: route every stray console call to stderr before anything loads.
for (const level of ["log", "info", "debug", "trace", "dir", "table"]) {
  console[level] = (...args) => console.error(...args);
}

const { main } = await import("../dist/main.js");
// Exit explicitly: idle sockets or timers of a finished run must not keep the process alive.
process.exit(await main(process.argv.slice(2)));
