// The revealed seed against the commitment published at the countdown:
// seed_commit is the lower-case hex SHA-256 of the seed's bytes, and the seed
// is revealed as hex (docs/protocol.md, "Checking the deal").
// crypto.subtle exists only on secure pages (https, or localhost); a page
// served over plain http on a LAN address computes the digest itself
// (FIPS 180-4, section 6.2).

export function hexToBytes(hex) {
  if (typeof hex !== "string" || !/^(?:[0-9a-f]{2})*$/.test(hex)) {
    throw new Error("not lower-case hex of whole bytes");
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

export function bytesToHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const ROUND = new Uint32Array(64);
const START = new Uint32Array(8);

// The round constants and the start values: the first 32 bits of the fractional
// parts of the cube roots of the first 64 primes and the square roots of the first 8.
(function fillConstants() {
  const primes = [];
  for (let n = 2; primes.length < 64; n += 1) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  const fraction = (x) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
  primes.forEach((p, i) => {
    ROUND[i] = fraction(Math.cbrt(p));
    if (i < 8) START[i] = fraction(Math.sqrt(p));
  });
})();

function padded(bytes) {
  const length = Math.ceil((bytes.length + 9) / 64) * 64;
  const block = new Uint8Array(length);
  block.set(bytes);
  block[bytes.length] = 0x80;
  const view = new DataView(block.buffer);
  view.setUint32(length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(length - 4, (bytes.length * 8) >>> 0);
  return view;
}

const rotate = (x, n) => (x >>> n) | (x << (32 - n));

function compress(hash, view, offset, words) {
  for (let t = 0; t < 16; t += 1) words[t] = view.getUint32(offset + 4 * t);
  for (let t = 16; t < 64; t += 1) {
    const a = words[t - 15];
    const b = words[t - 2];
    const s0 = rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3);
    const s1 = rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10);
    words[t] = (words[t - 16] + s0 + words[t - 7] + s1) >>> 0;
  }
  let [a, b, c, d, e, f, g, h] = hash;
  for (let t = 0; t < 64; t += 1) {
    const t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + ROUND[t] + words[t];
    const t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
  }
  [a, b, c, d, e, f, g, h].forEach((value, i) => {
    hash[i] = (hash[i] + value) >>> 0;
  });
}

/** SHA-256 of `bytes` computed here, for pages where crypto.subtle is missing. */
export function sha256Here(bytes) {
  const view = padded(bytes);
  const hash = new Uint32Array(START);
  const words = new Uint32Array(64);
  for (let offset = 0; offset < view.byteLength; offset += 64) compress(hash, view, offset, words);
  const out = new DataView(new ArrayBuffer(32));
  hash.forEach((value, i) => out.setUint32(4 * i, value));
  return new Uint8Array(out.buffer);
}

/** SHA-256 of `bytes` as lower-case hex, by the browser's crypto when it offers it. */
export async function sha256Hex(bytes) {
  if (globalThis.crypto && globalThis.crypto.subtle) {
    return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  }
  return bytesToHex(sha256Here(bytes));
}

/** The seed as people read it: a public practice deal's text, else the hex. */
export function describeSeed(seedHex) {
  const text = new TextDecoder().decode(hexToBytes(seedHex));
  return /^deal:[0-9]+$/.test(text) ? `public deal ${text.slice(5)} (seed "${text}")` : `secret seed ${seedHex}`;
}

/** Whether the revealed seed hashes to the commitment; the digest that was found. */
export async function checkSeed(seedHex, commitHex) {
  const digest = await sha256Hex(hexToBytes(seedHex));
  return { ok: digest === commitHex, digest };
}
