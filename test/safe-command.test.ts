import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isKnownReadOnly } from "../src/tools/exec/safe-command.js";
import { tokenizeShell } from "../src/tools/exec/shell-tokenizer.js";

/** Commands that are certainly read-only and should run without a prompt. */
const SAFE = [
  "ls",
  "ls -la",
  "ls -la src/",
  "pwd",
  "cat README.md",
  "cat 'file with spaces.txt'",
  'cat "file with spaces.txt"',
  "cat file\\ with\\ spaces.txt",
  "head -n 20 src/index.ts",
  "tail -n 50 log.txt",
  "wc -l src/*.ts",
  "grep -rn 'TODO' src",
  'grep -rn "foo|bar" .',
  "grep -E '^(a|b)$' file",
  "grep -c x *.md",
  "echo hello",
  "echo 'a && b; c | d > e'",
  'echo "a && b; c | d > e"',
  "echo $",
  'echo "price: 5$"',
  "echo a#b",
  "ls # a comment; rm -rf /",
  "true",
  "false",
  "id",
  "id -u",
  "uname -a",
  "whoami",
  "which node",
  "stat package.json",
  "cut -d: -f1 /etc/passwd",
  "paste a b",
  "nl file",
  "rev file",
  "seq 1 10",
  "tr a-z A-Z",
  "expr 1 + 2",
  "numfmt --to=iec 1048576",
  "tac file",
  "uniq file",
  "uniq -c file",
  "uniq",
  "cd src",
  "cd src && ls",
  "cd .. && pwd",
  "ls && pwd",
  "ls || echo missing",
  "ls; pwd",
  "ls;pwd",
  "ls&&pwd",
  "cat file | grep foo",
  "cat file|grep foo|wc -l",
  "grep -rn foo src | head -20",
  "ls\npwd",
  "ls\n\npwd\n",
  "ls &&\n  pwd",
  "ls;",
  "find . -name '*.ts'",
  'find . -name "*.ts" -type f',
  "find src -maxdepth 2 -type d",
  "find . -name \\*.md",
  "find . -newer package.json -print",
  "find . -name '*.log' -print0",
  "find ./src -name x*",
  "find . -type f 2>/dev/null",
  "rg foo",
  "rg -n 'fn main' src",
  "rg --files",
  "rg -i --hidden foo",
  "rg -g '*.ts' foo",
  "rg --type ts foo src/*.ts",
  "sed -n 1p file",
  "sed -n 10,20p file.txt",
  "sed -n '5,10p' src/a.ts",
  "sed -n 1,5p a b",
  "ls 2>/dev/null",
  "ls 2> /dev/null",
  "ls >/dev/null",
  "ls &>/dev/null",
  "ls 2>&1",
  "ls 2>&1 | head",
  "echo err >&2",
  "grep foo bar 2>/dev/null || echo none",
  "bash -lc 'ls -la'",
  "bash -c 'ls && pwd'",
  'bash -lc "grep -rn foo src | head"',
  "sh -c 'cat a | wc -l'",
  "'ls' -la",
  'l"s"',
  "c\\at file",
  "ls ~",
  "ls ~/projects",
  "cat file }",
  "echo {a,b}",
  "ls *",
  "grep foo -- -file",
  "head -c 100 /dev/urandom",
  "  ls  ",
  "ls \\\n -la",
];

/**
 * Must answer false: anything that may write or run another program, and anything beyond what
 * the classifier can prove (expansions, parse errors; a few harmless ones are refused too).
 */
const UNSAFE = [
  // unknown programs and programs with write or exec modes
  "rm -rf /",
  "rm file",
  "touch x",
  "mkdir x",
  "mv a b",
  "cp a b",
  "chmod +x a",
  "curl https://example.com",
  "wget https://example.com",
  "npm test",
  "npm install",
  "python3 -c 'print(1)'",
  "node -e 'x'",
  "make",
  "./configure",
  "/bin/ls",
  "/usr/bin/cat /etc/passwd",
  "./ls",
  "bin/ls",
  "sort -o out in",
  "sort file",
  "tee out",
  "dd if=/dev/zero of=x",
  "awk '{print}' file",
  "awk 'BEGIN{system(\"rm -rf /\")}'",
  "less file",
  "more file",
  "man ls",
  "vi file",
  "tar -xf a.tar",
  "tar --to-command=sh -xf a.tar",
  "base64 -d x",
  "date -s 2020-01-01",
  "kill 1",
  "source ./x",
  ". ./x",
  "alias ls=rm",
  "export X=1",
  "unset PATH",
  "set -e",
  "hash -p /bin/rm ls",
  "enable -n echo",
  "uniq in out",
  "uniq -c in out",
  "uniq in -c",
  "uniq -- in out",
  "uniq *",
  // git: repository config can run programs
  "git status",
  "git log",
  "git diff",
  "git show HEAD",
  "git branch",
  "git -c core.fsmonitor=evil status",
  "git -p log",
  "git --paginate log",
  "git -c core.pager=evil log",
  // chaining with anything unsafe
  "ls && rm -rf /",
  "ls || rm -rf /",
  "ls; rm -rf /",
  "ls;rm -rf /",
  "ls | sh",
  "cat file | bash",
  "ls\nrm -rf /",
  "ls\r\nrm -rf /",
  "ls &&\nrm -rf /",
  "echo x | xargs rm",
  "ls |& cat",
  "echo x && ls && touch y",
  // background, subshells, groups, functions, control flow
  "ls &",
  "ls & rm x",
  "sleep 1 &",
  "(ls)",
  "( cd src && ls )",
  "{ ls; }",
  "{ ls; rm x; }",
  "ls() { rm -rf /; }; ls",
  "function ls { rm x; }; ls",
  "if true; then rm x; fi",
  "for f in *; do rm $f; done",
  "while true; do :; done",
  "case x in x) rm y;; esac",
  "! ls",
  "time ls",
  "coproc ls",
  "[[ -f x ]]",
  "test -f x",
  // substitution and expansion
  "echo $(rm -rf /)",
  'echo "$(rm -rf /)"',
  "echo `rm -rf /`",
  'echo "`rm x`"',
  "cat <(rm x)",
  "diff <(ls) <(ls)",
  "ls >(rm x)",
  "echo $HOME",
  'echo "$HOME"',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  "echo ${HOME}",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  "echo ${X:=-delete}",
  "echo $((1+2))",
  "echo $[1+2]",
  "$CMD",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  "${CMD} -la",
  "ls $X",
  "find . $X",
  "echo $'\\x41'",
  "cat $'-delete'",
  'echo $"hi"',
  "echo $1",
  "echo $@",
  "echo $?",
  // redirection
  "echo x > file",
  "echo x >> file",
  "echo x >| file",
  "ls > out.txt",
  "ls 1>out",
  "ls 2>err.log",
  "ls 2>>err.log",
  "ls &>out",
  "ls &>>out",
  "ls >&out",
  "cat < /etc/passwd",
  "cat <file",
  "cat <<EOF\nhi\nEOF",
  "cat <<< hi",
  "cat > ~/.bashrc <<'EOF'\nrm -rf ~\nEOF",
  "ls 3<>file",
  "ls >",
  "ls 2>/dev/null/../../etc/x",
  "ls >/dev/nul",
  "ls > /dev/*",
  "echo x >/dev/null; rm y",
  "ls 2>&3",
  "ls >&-",
  "echo {a}>/dev/null rm",
  // wrappers
  "env ls",
  "env X=1 ls",
  "sudo ls",
  "timeout 5 ls",
  "nice ls",
  "nohup ls",
  "xargs ls",
  "command ls",
  "exec ls",
  "eval ls",
  "eval 'rm -rf /'",
  "builtin cd x",
  "bash -c 'rm -rf /'",
  "bash -lc 'ls && rm x'",
  "bash -c 'bash -c ls'",
  "bash -c ls extra",
  "bash -c",
  "bash script.sh",
  "bash",
  "sh -c 'rm x'",
  "zsh -c ls",
  "ls && bash -c ls",
  "bash -c 'ls' && rm x",
  "bash\n-c\nls",
  "bash -x -c ls",
  "busybox ls",
  "strace ls",
  // assignment prefixes
  "FOO=1 ls",
  "PATH=. ls",
  "LD_PRELOAD=/tmp/x.so ls",
  "BASH_ENV=x ls",
  "X=-delete; find . $X",
  "X=1",
  "a=b cat file",
  // find with exec, delete or write
  "find . -exec rm {} \\;",
  "find . -exec rm {} +",
  "find . -execdir rm {} \\;",
  "find . -ok rm {} \\;",
  "find . -okdir rm {} \\;",
  "find . -delete",
  "find . -name x -delete",
  "find . '-delete'",
  "find . \\-delete",
  'find . "-del"ete',
  "find . -fls out",
  "find . -fprint out",
  "find . -fprint0 out",
  "find . -fprintf out '%p'",
  "find *",
  "find . -name *.ts",
  "find . -{delete,print}",
  "find . -dele*",
  "find . ?delete",
  // ripgrep with preprocessors or decompressors
  "rg --pre sh foo",
  "rg --pre=./evil foo",
  "rg --pre-glob '*' --pre x foo",
  "rg --hostname-bin ./x foo",
  "rg -z foo",
  "rg -iz foo",
  "rg --search-zip foo",
  "rg --pr=./evil foo",
  "rg foo *",
  "rg foo -* ",
  "rg -- --pre", // harmless after --, refused anyway: every argument is checked
  // sed beyond -n Np
  "sed -i s/a/b/ file",
  "sed -n 1p -i file",
  "sed -n 1p file -i",
  "sed 's/a/b/' file",
  "sed -n 'e rm x' file",
  "sed -n '1e rm x' file",
  "sed -n '1w out' file",
  "sed -n 1p;e file",
  "sed -n 1p *.txt",
  "sed -n $p file",
  "sed -e 1p file",
  "sed -n -e 1p file",
  "sed -n '1p;2p' file",
  "sed 1p",
  "sed -n",
  // parse errors and odd bytes
  "echo 'unterminated",
  'echo "unterminated',
  "echo unterminated\\",
  "ls \x00 rm",
  "ls\x1b[31m",
  "ls \x7f",
  "; ls",
  "ls && && pwd",
  "ls &&",
  "ls |",
  "| ls",
  "",
  "   ",
  "\n",
  "ls ;; pwd",
  ")",
  "ls )",
];

describe("isKnownReadOnly", () => {
  it("has a corpus of at least 150 labelled commands, no duplicates", () => {
    expect(SAFE.length + UNSAFE.length).toBeGreaterThanOrEqual(300);
    expect(new Set([...SAFE, ...UNSAFE]).size).toBe(SAFE.length + UNSAFE.length);
  });

  it("classifies no unsafe command as read-only", () => {
    const wronglySafe = UNSAFE.filter((command) => isKnownReadOnly(command));
    expect(wronglySafe).toEqual([]);
  });

  it("classifies every known read-only command as read-only", () => {
    const wronglyUnsafe = SAFE.filter((command) => !isKnownReadOnly(command));
    expect(wronglyUnsafe).toEqual([]);
  });

  it("never lets one unsafe command hide among safe ones, whatever the operator (generated)", () => {
    const random = seeded(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const operators = ["&&", "||", ";", "|", "\n", " && ", " ; ", " | ", "\n\n"];
    // Without wrappers (one level only) and comments (which hide the rest of the line from bash).
    const safeParts = SAFE.filter((command) => !/^(bash|sh) /.test(command) && !command.includes(" #"));
    let cases = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(safeParts));
      parts.splice(Math.floor(random() * (parts.length + 1)), 0, pick(UNSAFE_SIMPLE));
      let command = parts[0]!;
      for (const part of parts.slice(1)) command += pick(operators) + part;
      if (isKnownReadOnly(command)) throw new Error(`classified as read-only: ${JSON.stringify(command)}`);
      if (isKnownReadOnly(`bash -lc ${shellQuote(command)}`)) throw new Error(`wrapped: ${command}`);
      cases += 1;
    }
    expect(cases).toBe(10_000);
  });
});

/** Unsafe single commands that stay unsafe whatever surrounds them. */
const UNSAFE_SIMPLE = [
  "rm -rf /",
  "touch x",
  "git status",
  "find . -delete",
  "rg --pre sh x",
  "sed -i s/a/b/ f",
  "echo $(id)",
  "ls > out",
  "FOO=1 ls",
  "env ls",
  "bash -c ls",
  "uniq a b",
  "(ls)",
  "ls &",
];

describe("tokenizeShell", () => {
  it("agrees with bash on the commands and arguments of every read-only example", () => {
    // Each safe program becomes a bash function that reports its argv on fd 3; bash then runs
    // the example in an empty directory (so globs stay literal) and we compare with our view.
    const programs = ["cat", "cd", "cut", "echo", "expr", "false", "find", "grep", "head", "id", "ls", "nl"]
      .concat(["numfmt", "paste", "pwd", "rev", "rg", "sed", "seq", "stat", "tac", "tail", "tr", "true"])
      .concat(["uname", "uniq", "wc", "which", "whoami"]);
    // One write per call, so that the members of a pipeline cannot interleave their reports.
    const preamble = programs.map(
      (name) => `${name}() { local s; s=$(printf '%s\\037' ${name} "$@"); printf '%s\\036' "$s" >&3; }`,
    );
    const dir = mkdtempSync(join(tmpdir(), "oi-tokenizer-"));
    try {
      let compared = 0;
      for (const example of SAFE) {
        if (/[{~]/.test(example)) continue; // brace and tilde expansion: bash changes the words
        const script = unwrapShell(example);
        const run = spawnSync("/bin/bash", ["-c", `${preamble.join("\n")}\n${script}`], {
          cwd: dir,
          stdio: ["ignore", "pipe", "pipe", "pipe"],
          encoding: "utf8",
        });
        const fromBash = String(run.output[3])
          .split("\u001e")
          .filter(Boolean)
          .map((argv) => argv.split("\u001f").slice(0, -1));
        // Pipelines run concurrently, so compare without order.
        const sorted = (runs: string[][]) => runs.map((argv) => JSON.stringify(argv)).sort();
        expect(sorted(fromBash), example).toEqual(sorted(ourView(script)));
        compared += 1;
      }
      expect(compared).toBeGreaterThan(80);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("splits words and operators like bash", () => {
    const tokens = tokenizeShell("a 'b c'\"d\"\\ e|f&&g 2>/dev/null #x")!;
    expect(tokens.map((t) => (t.type === "word" ? t.value : `<${t.op}${t.fd ?? ""}>`))).toEqual([
      "a",
      "b cd e",
      "<|>",
      "f",
      "<&&>",
      "g",
      "<>2>",
      "/dev/null",
    ]);
  });

  it("marks where a word may expand into other words", () => {
    const [a, b, c] = tokenizeShell("'*'x src/*.ts {a,b}")!;
    expect(a).toMatchObject({ value: "*x", patternAt: -1, quoted: true });
    expect(b).toMatchObject({ value: "src/*.ts", patternAt: 4 });
    expect(c).toMatchObject({ value: "{a,b}", patternAt: 0 });
  });

  it("refuses what it cannot model exactly", () => {
    for (const input of ["a $b", "a `b`", "a $'b'", "'open", '"open', "a\\", 'a "$(b)"', "{fd}>/dev/null"]) {
      expect(tokenizeShell(input), input).toBeUndefined();
    }
  });
});

/** The inner script of `bash -c SCRIPT`, else the command itself. */
function unwrapShell(command: string): string {
  const tokens = tokenizeShell(command)!;
  const [shell, flag, script] = tokens;
  const isWrapper =
    tokens.length === 3 && shell?.type === "word" && /^(ba)?sh$/.test(shell.value) && flag?.type === "word";
  return isWrapper && script?.type === "word" ? script.value : command;
}

/** The argv of each simple command bash runs when every command succeeds (so `a || b` skips b). */
function ourView(script: string): string[][] {
  const runs: string[][] = [];
  let words: string[] = [];
  let skip = false;
  let redirectTarget = false;
  for (const token of [...tokenizeShell(script)!, { type: "op" as const, op: "\n" }]) {
    if (token.type === "word") {
      if (!redirectTarget) words.push(token.value);
      redirectTarget = false;
    } else if (["&&", "||", ";", "|", "\n"].includes(token.op)) {
      if (words.length > 0 && !skip) runs.push(words);
      if (words.length > 0) skip = token.op === "||";
      words = [];
    } else {
      redirectTarget = true;
    }
  }
  return runs;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
