// Drops node's code cache for its own modules from a start-up snapshot blob.
//
// `node --build-snapshot` appends the compiled code of ~320 of node's internal modules (3.2 MB
// here). Every start reads the whole blob into memory and keeps it, so that cache cost 15-25 ms
// of start and ~3 MB of resident memory, for modules the heap image holds compiled already
// (the ones the daemon uses at start) or that compile on their first `require` without it.
// node's own way to leave it out, `withoutCodeCache` in `--build-snapshot-config`, is broken on
// node 20: it skips the second pass that rebuilds the heap image, and in the first pass's image
// lazily compiled closures read the wrong context slots (node's errors got a function as their
// `code`; the ACP SDK's class fields crashed V8 with SIGTRAP).
//
// The blob's layout (node's src/node_snapshotable.cc) ends with the cache: a count, then per
// module a length-prefixed id and a length-prefixed byte string, all lengths 64-bit little
// endian. The cache is the earliest offset from which that walk ends exactly at the end of the
// blob; it is replaced by a count of zero. Anything unexpected returns undefined, and the build
// keeps the blob as node wrote it (it also checks that the stripped one starts).

const MAX_MODULES = 5_000;
const MAX_ID = 200;

/** The blob without node's code cache, or undefined when its layout is not the expected one. */
export function stripCodeCache(blob) {
  for (let start = 0; start + 8 <= blob.length; start++) {
    if (endsAtBlobEnd(blob, start)) return Buffer.concat([blob.subarray(0, start), Buffer.alloc(8)]);
  }
  return undefined;
}

/** Whether a code cache vector starting at `start` parses and ends exactly at the blob's end. */
function endsAtBlobEnd(blob, start) {
  const count = readLength(blob, start);
  if (count < 1 || count > MAX_MODULES) return false;
  let at = start + 8;
  for (let i = 0; i < count; i++) {
    const idLength = readLength(blob, at);
    if (idLength < 1 || idLength > MAX_ID) return false;
    at += 8;
    for (let k = 0; k < idLength; k++) {
      const c = blob[at + k];
      if (c === undefined || c < 0x21 || c > 0x7e) return false;
    }
    at += idLength;
    const dataLength = readLength(blob, at);
    if (dataLength < 0 || at + 8 + dataLength > blob.length) return false;
    at += 8 + dataLength;
  }
  return at === blob.length;
}

function readLength(blob, at) {
  if (at + 8 > blob.length) return -1;
  const value = blob.readBigUInt64LE(at);
  return value > BigInt(blob.length) ? -1 : Number(value);
}
