/** Frame types of the spawn helper's protocol (see spawner-main.ts), shared by both ends. */
export const SPAWN = 1;
export const RELEASE = 2;
/** Bytes for the command's stdin (only a command spawned with `stdin: "pipe"`). */
export const STDIN = 3;
/** End of the command's stdin. */
export const STDIN_END = 4;
export const SPAWNED = 11;
export const FAILED = 12;
export const STDOUT = 13;
export const STDERR = 14;
export const EXIT = 15;
export const CLOSE = 16;
/** The helper asks to be replaced once its commands are done (id 0; confine-helper.ts). */
export const RETIRE = 17;
/** A spare shell waits in the confined helper (id 0, u32 pid inside the sandbox; spare-shell.ts). */
export const SPARE = 18;
/** A confined helper is up and reading requests (id 0, no payload). */
export const READY = 19;
