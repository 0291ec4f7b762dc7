// The revealed seed against the commitment published at the countdown:
// seed_commit is the lower-case hex SHA-256 of the seed's bytes, and the seed
// is revealed as hex (docs/protocol.md, "Checking the deal").
// crypto.subtle exists only on secure pages (https, or localhost); a page
// served over plain http on a LAN address computes the digest with
// @noble/hashes (vendor/noble-hashes).

import { sha256 } from "./vendor/noble-hashes/sha2.js";

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

/** SHA-256 of `bytes` computed here, for pages where crypto.subtle is missing. */
export function sha256Here(bytes) {
  return sha256(bytes);
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
