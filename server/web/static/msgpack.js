// MessagePack for the watch page: @msgpack/msgpack (vendor/msgpack, its ES
// module build as published), used only through its documented options.
// decode() gives plain JavaScript: a map becomes an object (the protocol's
// maps are a message's fields, so a key that is not a str, or the key
// "__proto__", is refused); bin becomes a Uint8Array; every integer becomes a
// Number. Extension types are refused: the protocol has none. encode() writes
// the bytes Python's msgpack writes for the values a client sends. Every
// failure is a MsgpackError saying why.
//
// What the library does, and so what the page gets (useBigInt64 is off, the
// default; tests/server/web/test_msgpack_js.py checks each point):
// - A 64-bit integer is read as a Number, exact up to 2^53; beyond that it is
//   the nearest double. No option refuses it, and the server never sends one:
//   the protocol's unbounded ints are counts, seqs and ms timestamps (~1.8e12).
// - A whole Number beyond 32 bits is written as uint64/int64, as Python's
//   msgpack writes it; one beyond 2^53 (never exact in JavaScript) as a
//   float64. A BigInt is refused: the page sends its integers as Numbers.
// - A str of bad UTF-8 is decoded as best the library can (up to 200 bytes by
//   its own decoder, which never fails; longer by TextDecoder, with U+FFFD),
//   not refused: it has no strict option (rawStrings would make every str a
//   Uint8Array, like bin), and the server never sends one: Python's msgpack
//   writes a str only from a Python str, encoded as strict UTF-8.

import { DecodeError } from "./vendor/msgpack/DecodeError.mjs";
import { Decoder } from "./vendor/msgpack/Decoder.mjs";
import { Encoder } from "./vendor/msgpack/Encoder.mjs";

export class MsgpackError extends Error {
  constructor(message) {
    super(message);
    this.name = "MsgpackError";
  }
}

/** The library's ExtensionCodecType (its `extensionCodec` option): no extension either way. */
const noExtensions = {
  tryToEncode: (object) => {
    if (typeof object === "bigint") throw new MsgpackError(`a BigInt (${object}): integers are sent as Numbers`);
    return null;
  },
  decode: () => {
    throw new MsgpackError("an extension type: the protocol has none");
  },
};

function strKey(key) {
  if (typeof key === "string") return key;
  throw new MsgpackError(`a map key that is not a str (${typeof key})`);
}

const decoder = new Decoder({ extensionCodec: noExtensions, mapKeyConverter: strKey });
const encoder = new Encoder({ extensionCodec: noExtensions });

/**
 * The library's error as a MsgpackError saying what is wrong with the bytes. Its
 * RangeError is both "the data ends early" and "bytes left over"; the second
 * says how many in its message, which is read here (the tests pin both).
 */
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
