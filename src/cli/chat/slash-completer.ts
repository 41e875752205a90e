/** Commands the chat itself answers (the agent's own arrive in `available_commands_update`). */
export const LOCAL_COMMANDS = [
  { name: "exit", description: "Quit (also Ctrl-D, or Ctrl-C twice)" },
  { name: "help", description: "Show the keys and commands" },
];

/**
 * A `node:readline` completer for `/` names: `/ha` + Tab becomes `/harness `; several matches
 * are listed by readline. Anything but a lone `/word` completes to nothing.
 */
export function slashCompleter(names: () => string[]) {
  return (line: string): [string[], string] => {
    if (!/^\/\S*$/.test(line)) return [[], line];
    const matches = [...new Set(names())]
      .map((name) => `/${name}`)
      .filter((name) => name.startsWith(line))
      .sort();
    return [matches.length === 1 ? [`${matches[0]} `] : matches, line];
  };
}
