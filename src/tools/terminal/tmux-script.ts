/** POSIX single quoting: the word reaches the program exactly as given. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'"'"'`)}'`;
}

export interface PaneOptions {
  width: number;
  height: number;
  historyLimit: number;
  /** The tmux session's name. */
  session: string;
}

/** The shell in the pane: no rc files (the screen is the same for every user), a `user@host:dir$` prompt. */
export const PANE_SHELL = ["bash", "--noprofile", "--norc", "-i"];
const PROMPT = "\\u@\\h:\\w\\$ ";

/**
 * What tmux runs in the pane (through `sh -c`): the shell started as the session's exec port
 * would start a command, with exactly its environment (plus the terminal type tmux set and the
 * prompt), the sandbox's seccomp program opened as fd 3 when there is one.
 */
export function paneCommand(launch: {
  argv: string[];
  env: Record<string, string>;
  fd3File?: string;
}): string {
  const open = launch.fd3File !== undefined ? `exec 3<${shellQuote(launch.fd3File)}; ` : "";
  const env = Object.entries({ ...launch.env, PS1: PROMPT }).map(([key, value]) =>
    shellQuote(`${key}=${value}`),
  );
  return `${open}exec env -i TERM="$TERM" ${env.join(" ")} ${launch.argv.map(shellQuote).join(" ")}`;
}

/** Starts the session unless it is there (its shell may have exited), then waits for its prompt. */
export function sessionScript(options: {
  socket: string;
  pane: PaneOptions;
  cwd: string;
  command: string;
}): string {
  const { pane } = options;
  const session = shellQuote(pane.session);
  return [
    `sock=${shellQuote(options.socket)}`,
    `if ! tmux -S "$sock" has-session -t ${session} 2>/dev/null; then`,
    `  tmux -S "$sock" set-option -g history-limit ${pane.historyLimit} >/dev/null`,
    `  tmux -S "$sock" new-session -d -s ${session} -x ${pane.width} -y ${pane.height} -c ${shellQuote(options.cwd)} ${shellQuote(options.command)}`,
    `  for _ in $(seq 250); do [ -n "$(tmux -S "$sock" capture-pane -p -t ${session} | tr -d '[:space:]')" ] && break; sleep 0.02; done`,
    "fi",
  ].join("\n");
}

export interface Keystrokes {
  keystrokes: string;
  /** Seconds to wait after sending them. */
  duration: number;
}

export interface Markers {
  buffer: string;
  screen: string;
  end: string;
}

export function markers(nonce: string): Markers {
  return {
    buffer: `__OI_TERMINAL_BUFFER_${nonce}__`,
    screen: `__OI_TERMINAL_SCREEN_${nonce}__`,
    end: `__OI_TERMINAL_END_${nonce}__`,
  };
}

/**
 * One batch: each command's keystrokes as one `send-keys` argument (tmux reads a key name such
 * as `C-c` as that key, anything else as literal text), its duration waited, then the whole
 * scrollback and the visible screen printed between markers.
 */
export function batchScript(options: {
  socket: string;
  pane: PaneOptions;
  commands: Keystrokes[];
  markers: Markers;
}): string {
  const session = shellQuote(options.pane.session);
  const lines = [`sock=${shellQuote(options.socket)}`];
  for (const command of options.commands) {
    if (command.keystrokes !== "") {
      lines.push(`tmux -S "$sock" send-keys -t ${session} -- ${shellQuote(command.keystrokes)}`);
    }
    if (command.duration > 0) lines.push(`sleep ${command.duration}`);
  }
  const { buffer, screen, end } = options.markers;
  lines.push(
    `printf '%s\\n' ${shellQuote(buffer)}`,
    `tmux -S "$sock" capture-pane -p -S - -t ${session}`,
    `printf '%s\\n' ${shellQuote(screen)}`,
    `tmux -S "$sock" capture-pane -p -t ${session}`,
    `printf '%s\\n' ${shellQuote(end)}`,
  );
  return lines.join("\n");
}

/** The scrollback and the screen printed between a batch's markers; undefined when they are not all there. */
export function readCapture(text: string, m: Markers): { buffer: string; screen: string } | undefined {
  const start = text.lastIndexOf(`${m.buffer}\n`);
  const middle = text.indexOf(`${m.screen}\n`, start);
  const end = text.indexOf(`${m.end}\n`, middle);
  if (start === -1 || middle === -1 || end === -1) return undefined;
  return {
    buffer: text.slice(start + m.buffer.length + 1, middle),
    screen: text.slice(middle + m.screen.length + 1, end),
  };
}
