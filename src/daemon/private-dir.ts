import fs from "node:fs";

/**
 * Creates the daemon's folder (and the home above it) and makes it private: a directory of
 * ours, not a symlink, mode 0700. Connecting to a Unix socket needs search permission on
 * every directory of its path, so this folder keeps every other user out (root aside, which
 * can read the database anyway). Returns why it cannot be trusted, or undefined.
 */
export function privateDir(dir: string): string | undefined {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return `${dir} is not a directory`;
    if (stat.uid !== process.getuid?.()) return `${dir} belongs to another user (uid ${stat.uid})`;
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
    return undefined;
  } catch (error) {
    return `${dir}: ${(error as Error).message}`;
  }
}

/**
 * Whether `socket` is a socket of ours that only we can open: a window must not talk to a
 * daemon another user planted (a home in a shared folder), nor hand its prompts to one.
 */
export function ownSocket(socket: string): boolean {
  try {
    const stat = fs.lstatSync(socket);
    return stat.isSocket() && stat.uid === process.getuid?.() && (stat.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
