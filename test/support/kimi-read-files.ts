// The files Kimi Code 2.1.0's Read and Glob were measured on (test/golden/kimi-code/read-glob-2.1.0.json).
// The measurement wrote them into its workspace with writeKimiReadFiles (plain TypeScript with
// node: imports only, so Node 22 runs it with type stripping); the tests write the same bytes
// and mtimes into a temp directory and replay the recorded calls against our tools.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A line of `length` letters that is not periodic over short spans, so a shifted fragment shows. */
function letters(length: number): string {
  return Array.from({ length }, (_, i) => String.fromCharCode(97 + ((i * 7 + Math.floor(i / 26)) % 26))).join(
    "",
  );
}

function utf16(text: string, order: "le" | "be", bom: boolean): Buffer {
  const le = Buffer.from(text, "utf16le");
  const body = order === "le" ? le : Buffer.from(le).swap16();
  const mark = order === "le" ? [0xff, 0xfe] : [0xfe, 0xff];
  return bom ? Buffer.concat([Buffer.from(mark), body]) : body;
}

export interface KimiReadFile {
  name: string;
  content: string | Buffer;
  ageSeconds?: number;
}

export function kimiReadFiles(): KimiReadFile[] {
  const many = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${"x".repeat((i + 1) % 97)}\n`).join("");
  const files: KimiReadFile[] = [
    { name: "notes.txt", content: "alpha\nbeta\ngamma\ndelta\nepsilon\n" },
    { name: "long.txt", content: `first\nsecond\n${letters(120_000)}\nafter1\nafter2\n` },
    { name: "many.txt", content: many },
    { name: "emoji.txt", content: `e1\nab${"\u{1F600}".repeat(3000)}cd\ntail\n` },
    { name: "crlf.txt", content: "one\r\ntwo\r\nthree\r\n" },
    { name: "mixed.txt", content: "a\r\nb\nc\rd\n" },
    { name: "lonecr.txt", content: "x\ry\rz" },
    { name: "nonl.txt", content: "a\nb" },
    { name: "bom8.txt", content: "\uFEFFx\ny\n" },
    { name: "empty.txt", content: "" },
    { name: "blank.txt", content: "\n\n\n" },
    { name: "u16le.txt", content: utf16("hello\nworld\n", "le", true) },
    { name: "u16be.txt", content: utf16("hi\nthere\n", "be", false) },
    {
      name: "u16lossy.txt",
      content: Buffer.concat([
        utf16("ok\n", "le", true),
        Buffer.from([0x00, 0xd8]),
        utf16("z\n", "le", false),
      ]),
    },
    { name: "latin1.txt", content: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) },
    { name: "nullate.txt", content: `${"a".repeat(600)}\nb\0c\n` },
    { name: "crlflong.txt", content: `h\r\n${letters(3000)}\r\nt\r\n` },
    { name: "mixedlong.txt", content: `m\n${"ab\r".repeat(1000)}\r\nz\n` },
  ];
  for (let i = 0; i < 250; i++) {
    files.push({ name: `g/f${String(i).padStart(3, "0")}.txt`, content: "", ageSeconds: 1000 + i });
  }
  files.push({ name: "g/.env", content: "", ageSeconds: 100 });
  files.push({ name: "g/id_rsa", content: "", ageSeconds: 101 });
  files.push({ name: "g/sub/deep.txt", content: "", ageSeconds: 102 });
  return files;
}

/** Writes the files under `dir`; ages count back from `now` (seconds since the epoch). */
export function writeKimiReadFiles(dir: string, now = Math.floor(Date.now() / 1000)): void {
  for (const file of kimiReadFiles()) {
    const target = path.join(dir, file.name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
    if (file.ageSeconds !== undefined) utimesSync(target, now - file.ageSeconds, now - file.ageSeconds);
  }
}
