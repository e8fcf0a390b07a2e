// Byte prefixes, which both the document checks (a file's signature) and the CSV decoding (a
// byte order mark) read.

/** True when `head` begins with `bytes`. */
export const startsWith = (head: Uint8Array, bytes: readonly number[]): boolean =>
  head.length >= bytes.length && bytes.every((byte, i) => head[i] === byte);
