/** Frame types of the spawn helper's protocol (see spawner-main.ts), shared by both ends. */
export const SPAWN = 1;
export const RELEASE = 2;
export const SPAWNED = 11;
export const FAILED = 12;
export const STDOUT = 13;
export const STDERR = 14;
export const EXIT = 15;
export const CLOSE = 16;
