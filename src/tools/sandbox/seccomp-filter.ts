/**
 * A classic-BPF seccomp program for bwrap's `--seccomp FD`, built here so no compiler or
 * libseccomp is needed. It closes the one hole the mount and network namespaces leave open:
 * a pathname Unix socket on the host (`/run/docker.sock`, a D-Bus or ssh-agent socket) stays
 * connectable through a read-only bind, because a read-only mount does not stop `connect()`.
 * So `socket(AF_UNIX, …)` fails with EPERM. `socketpair()` stays allowed: Node's IPC channel,
 * test runners' workers and pipes between processes keep working.
 *
 * Also denied: `io_uring_setup` (io_uring can open sockets without the `socket` syscall), x32
 * syscalls, and every syscall of a foreign ABI (a 32-bit `int 0x80` could reach `socketcall`,
 * which takes its family behind a pointer the filter cannot read).
 */
export function seccompFilter(arch: string = process.arch): Buffer | undefined {
  const abi = ABIS[arch];
  if (!abi) return undefined;
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH_OFFSET],
    [JEQ_K, 1, 0, abi.auditArch],
    [RET_K, 0, 0, DENY],
    [LD_W_ABS, 0, 0, NR_OFFSET],
    ...(abi.x32Bit === undefined
      ? []
      : ([
          [JGE_K, 0, 1, abi.x32Bit],
          [RET_K, 0, 0, DENY],
        ] satisfies Instruction[])),
    [JEQ_K, 0, 1, abi.ioUringSetup],
    [RET_K, 0, 0, DENY],
    [JEQ_K, 0, 3, abi.socket],
    [LD_W_ABS, 0, 0, ARG0_LOW_OFFSET],
    [JEQ_K, 0, 1, AF_UNIX],
    [RET_K, 0, 0, DENY],
    [RET_K, 0, 0, ALLOW],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}

/** `struct sock_filter`: code, jump-if-true, jump-if-false, constant. */
type Instruction = [number, number, number, number];

const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K

/** Offsets in `struct seccomp_data` (little-endian: the low word of `args[0]` comes first). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARG0_LOW_OFFSET = 16;

const ALLOW = 0x7fff0000; // SECCOMP_RET_ALLOW
const DENY = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM
const AF_UNIX = 1;

interface Abi {
  auditArch: number;
  socket: number;
  ioUringSetup: number;
  /** Syscall numbers at or above this are the x32 ABI. */
  x32Bit?: number;
}

/** Keyed by `process.arch`. Numbers from the kernel's syscall tables. */
const ABIS: Record<string, Abi> = {
  x64: { auditArch: 0xc000003e, socket: 41, ioUringSetup: 425, x32Bit: 0x40000000 },
  arm64: { auditArch: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};
