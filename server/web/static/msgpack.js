// MessagePack for the watch page: @msgpack/msgpack (vendor/msgpack, its ES
// module build as published) with the options and the few changes the
// protocol needs. decode() gives plain JavaScript: a map becomes an object
// (the protocol's maps are a message's fields, so a key that is not a str,
// or the key "__proto__", is refused); bin becomes a Uint8Array; a 64-bit
// integer beyond 2^53 becomes a BigInt. Extension types are refused: the
// protocol never sends them. encode() writes the bytes Python's msgpack writes
// for the values a client sends. Every failure is a MsgpackError.
//
// The library decodes a str with bad UTF-8 as best it can, and gives a BigInt
// for every 64-bit integer, or a Number for all of them; when it encodes
// BigInts, it writes a whole number beyond 32 bits as a float. The two
// classes below change those methods of the pinned version (fetch.sh), and
// tests/server/test_web_msgpack.py checks every format against Python's msgpack.

import { DecodeError } from "./vendor/msgpack/DecodeError.mjs";
import { Decoder } from "./vendor/msgpack/Decoder.mjs";
import { Encoder } from "./vendor/msgpack/Encoder.mjs";

export class MsgpackError extends Error {
  constructor(message) {
    super(message);
    this.name = "MsgpackError";
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const INT64_MIN = -(2n ** 63n);
const UINT64_END = 2n ** 64n;

const noExtensions = {
  tryToEncode: () => null,
  decode: () => {
    throw new MsgpackError("an extension type: the protocol has none");
  },
};

function strKey(key) {
  if (typeof key === "string") return key;
  throw new MsgpackError(`a map key that is not a str (${typeof key})`);
}

function narrow(big) {
  const small = Number(big);
  return Number.isSafeInteger(small) ? small : big;
}

class PageDecoder extends Decoder {
  decodeString(byteLength, headerOffset) {
    const start = this.pos + headerOffset;
    super.decodeString(byteLength, headerOffset); // checks the length and moves past the bytes
    try {
      return strictUtf8.decode(this.bytes.subarray(start, start + byteLength));
    } catch {
      throw new MsgpackError(`invalid UTF-8 in a str at offset ${start}`);
    }
  }

  readU64AsBigInt() {
    return narrow(super.readU64AsBigInt());
  }

  readI64AsBigInt() {
    return narrow(super.readI64AsBigInt());
  }
}

class PageEncoder extends Encoder {
  encodeNumber(value) {
    if (Number.isSafeInteger(value) && (value >= 2 ** 32 || value < -(2 ** 31))) {
      this.encodeBigInt64(BigInt(value));
    } else {
      super.encodeNumber(value);
    }
  }

  encodeBigInt64(value) {
    if (value < INT64_MIN || value >= UINT64_END) {
      throw new MsgpackError(`integer out of the 64-bit range: ${value}`);
    }
    super.encodeBigInt64(value);
  }
}

const decoder = new PageDecoder({ useBigInt64: true, extensionCodec: noExtensions, mapKeyConverter: strKey });
const encoder = new PageEncoder({ useBigInt64: true, extensionCodec: noExtensions });

/** The library's error as a MsgpackError saying what is wrong with the bytes. */
function refusal(error) {
  if (error instanceof MsgpackError) return error;
  if (error instanceof RangeError) {
    const extra = /^Extra (\d+) of/.exec(error.message);
    if (extra === null) return new MsgpackError(`truncated: the data ends inside a value (${error.message})`);
    const left = Number(extra[1]);
    return new MsgpackError(`${left} ${left === 1 ? "byte" : "bytes"} left after the value`);
  }
  if (error instanceof DecodeError) return new MsgpackError(error.message);
  return error;
}

/** One msgpack value from `data` (Uint8Array or ArrayBuffer), which it must fill exactly. */
export function decode(data) {
  try {
    return decoder.decode(data);
  } catch (error) {
    throw refusal(error);
  }
}

/** `value` as msgpack bytes (a Uint8Array). Whole numbers are ints, other numbers float64. */
export function encode(value) {
  try {
    return encoder.encode(value);
  } catch (error) {
    throw error instanceof MsgpackError ? error : new MsgpackError(error.message);
  }
}
