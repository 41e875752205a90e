import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { handOverScript } from "../src/tools/exec/spawner/spare-shell.js";

const dash = ["/usr/bin/dash", "/bin/dash"].find((file) => existsSync(file));

// Words a model writes into commands, and what shells read specially.
const tricky = [
  "it's",
  "'",
  "''",
  `"double" \\ back\\slash`,
  "$HOME $(touch /tmp/oi-spare-pwned) `id`",
  "semi; colon && and || or | pipe > redirect",
  "two\nlines\n",
  "  leading and trailing  ",
  "",
  "ünïcödé ✓",
  "*",
  "-n",
];

describe("handOverScript", () => {
  it.skipIf(!dash)("hands every word to the program exactly as given, expanding nothing", () => {
    const script = handOverScript("/usr/bin/printf", ["%s\\0", ...tricky], {
      cwd: "/",
      env: { ONE: tricky.join("|"), PATH: "/usr/bin:/bin" },
    });
    expect(script).toBeDefined();
    const out = execFileSync(dash!, ["-s"], { input: script, env: {} });
    expect(out.toString("utf8").split("\0").slice(0, -1)).toEqual(tricky);
    expect(existsSync("/tmp/oi-spare-pwned")).toBe(false);
  });

  it.skipIf(!dash)("gives the program exactly the environment given, in the directory given", () => {
    const environment = (env: Record<string, string>) => {
      const script = handOverScript("/usr/bin/env", ["-0"], { cwd: "/usr", env });
      const out = execFileSync(dash!, ["-s"], { input: script, env: {} }).toString("utf8");
      return Object.fromEntries(
        out
          .split("\0")
          .slice(0, -1)
          .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
      );
    };
    // The shell's own PWD and OLDPWD (set by its `cd`) are not passed on; a given PWD is.
    const env = { ONE: "it's\nmulti-line $x", EMPTY: "", PATH: "/usr/bin:/bin" };
    expect(environment(env)).toEqual(env);
    expect(environment({ ...env, PWD: "/claimed" })).toEqual({ ...env, PWD: "/claimed" });
    const pwd = handOverScript("/bin/pwd", [], { cwd: "/usr", env: {} });
    expect(execFileSync(dash!, ["-s"], { input: pwd, env: {} }).toString()).toBe("/usr\n");
  });

  it.skipIf(!dash)("runs the program with stdin from /dev/null and the fd-3 file open", () => {
    // dash itself reads the line from a pipe: the program must not get that pipe as stdin.
    const script = handOverScript("/bin/sh", ["-c", "readlink /proc/$$/fd/0; cat <&3"], {
      cwd: "/",
      env: { PATH: "/usr/bin:/bin" },
      fd3File: "/etc/hostname",
    });
    const out = execFileSync(dash!, ["-s"], { input: script, env: {} }).toString();
    expect(out).toBe(`/dev/null\n${execFileSync("cat", ["/etc/hostname"]).toString()}`);
  });

  it("leaves to the ordinary spawn what a script cannot carry exactly", () => {
    const options = { cwd: "/", env: { PATH: "/bin" } };
    expect(handOverScript("/bin/true", [], options)).toBeDefined();
    expect(handOverScript("true", [], options)).toBeUndefined(); // looked up on PATH by spawn
    expect(handOverScript("/bin/true", [], { cwd: "/", env: { "A.B": "1" } })).toBeUndefined();
    expect(handOverScript("/bin/true", [], { cwd: "/", env: { "1A": "1" } })).toBeUndefined();
    expect(handOverScript("/bin/true", ["a\0b"], options)).toBeUndefined();
    expect(handOverScript("/bin/true", [], { cwd: "/", env: { A: "a\0b" } })).toBeUndefined();
    expect(handOverScript("/bin/true", [], { cwd: "/\0", env: {} })).toBeUndefined();
  });
});
