export async function main(argv: string[]): Promise<number> {
  process.stderr.write(`not implemented yet: ${argv.join(" ")}\n`);
  return 1;
}
