// MessagePack for the watch page: every nil, bool, int, float, str, bin, array
// and map format of the specification (https://github.com/msgpack/msgpack/blob/master/spec.md).
// Extension types are refused: the protocol never sends them.
// decode() turns one value into plain JavaScript: maps with string keys become
// objects without a prototype, any other map a Map; bin becomes a Uint8Array;
// a 64-bit integer beyond 2^53 becomes a BigInt. encode() is its inverse for the
// values a client sends.

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });
const utf8Encoder = new TextEncoder();

export class MsgpackError extends Error {
  constructor(message) {
    super(message);
    this.name = "MsgpackError";
  }
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = 0;
  }

  take(count) {
    if (this.at + count > this.bytes.length) {
      throw new MsgpackError(`truncated: ${count} bytes wanted at offset ${this.at}`);
    }
    const start = this.at;
    this.at += count;
    return start;
  }

  uint(size) {
    const at = this.take(size);
    const view = this.view;
    if (size === 1) return view.getUint8(at);
    if (size === 2) return view.getUint16(at);
    if (size === 4) return view.getUint32(at);
    return safeNumber(view.getBigUint64(at));
  }

  int(size) {
    const at = this.take(size);
    const view = this.view;
    if (size === 1) return view.getInt8(at);
    if (size === 2) return view.getInt16(at);
    if (size === 4) return view.getInt32(at);
    return safeNumber(view.getBigInt64(at));
  }

  float(size) {
    const at = this.take(size);
    return size === 4 ? this.view.getFloat32(at) : this.view.getFloat64(at);
  }

  raw(length) {
    const at = this.take(length);
    return this.bytes.subarray(at, at + length);
  }

  str(length) {
    try {
      return utf8Decoder.decode(this.raw(length));
    } catch (error) {
      if (error instanceof MsgpackError) throw error;
      throw new MsgpackError(`invalid UTF-8 in a str at offset ${this.at - length}`);
    }
  }
}

function safeNumber(big) {
  const small = Number(big);
  return Number.isSafeInteger(small) ? small : big;
}

function readArray(reader, length) {
  const items = new Array(length);
  for (let i = 0; i < length; i += 1) items[i] = readValue(reader);
  return items;
}

function readMap(reader, length) {
  const keys = new Array(length);
  const values = new Array(length);
  for (let i = 0; i < length; i += 1) {
    keys[i] = readValue(reader);
    values[i] = readValue(reader);
  }
  if (keys.every((key) => typeof key === "string")) {
    const object = Object.create(null);
    keys.forEach((key, i) => {
      object[key] = values[i];
    });
    return object;
  }
  return new Map(keys.map((key, i) => [key, values[i]]));
}

// Formats by first byte, for the ones that are not a fix* range.
const FORMATS = {
  0xc0: () => null,
  0xc2: () => false,
  0xc3: () => true,
  0xc4: (r) => r.raw(r.uint(1)).slice(),
  0xc5: (r) => r.raw(r.uint(2)).slice(),
  0xc6: (r) => r.raw(r.uint(4)).slice(),
  0xca: (r) => r.float(4),
  0xcb: (r) => r.float(8),
  0xcc: (r) => r.uint(1),
  0xcd: (r) => r.uint(2),
  0xce: (r) => r.uint(4),
  0xcf: (r) => r.uint(8),
  0xd0: (r) => r.int(1),
  0xd1: (r) => r.int(2),
  0xd2: (r) => r.int(4),
  0xd3: (r) => r.int(8),
  0xd9: (r) => r.str(r.uint(1)),
  0xda: (r) => r.str(r.uint(2)),
  0xdb: (r) => r.str(r.uint(4)),
  0xdc: (r) => readArray(r, r.uint(2)),
  0xdd: (r) => readArray(r, r.uint(4)),
  0xde: (r) => readMap(r, r.uint(2)),
  0xdf: (r) => readMap(r, r.uint(4)),
};

function readValue(reader) {
  const first = reader.uint(1);
  if (first <= 0x7f) return first;
  if (first >= 0xe0) return first - 0x100;
  if (first <= 0x8f) return readMap(reader, first & 0x0f);
  if (first <= 0x9f) return readArray(reader, first & 0x0f);
  if (first <= 0xbf) return reader.str(first & 0x1f);
  const format = FORMATS[first];
  if (format === undefined) {
    const what = first === 0xc1 ? "the never-used byte 0xc1" : "an extension type";
    throw new MsgpackError(`${what} at offset ${reader.at - 1}`);
  }
  return format(reader);
}

/** One msgpack value from `data` (Uint8Array or ArrayBuffer), which it must fill exactly. */
export function decode(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const reader = new Reader(bytes);
  const value = readValue(reader);
  const left = bytes.length - reader.at;
  if (left !== 0) throw new MsgpackError(`${left} ${left === 1 ? "byte" : "bytes"} left after the value`);
  return value;
}

class Writer {
  constructor() {
    this.bytes = new Uint8Array(64);
    this.view = new DataView(this.bytes.buffer);
    this.length = 0;
  }

  room(count) {
    if (this.length + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + count));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }

  byte(value) {
    this.room(1);
    this.bytes[this.length] = value;
    this.length += 1;
  }

  put(setter, size, value) {
    this.room(size);
    this.view[setter](this.length, value);
    this.length += size;
  }

  raw(bytes) {
    this.room(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  head(fix, fixLimit, codes, length) {
    if (length < fixLimit) {
      this.byte(fix | length);
    } else if (codes[0] !== undefined && length < 0x100) {
      this.byte(codes[0]);
      this.byte(length);
    } else if (length < 0x10000) {
      this.byte(codes[1]);
      this.put("setUint16", 2, length);
    } else if (length < 0x100000000) {
      this.byte(codes[2]);
      this.put("setUint32", 4, length);
    } else {
      throw new MsgpackError(`too long for msgpack: ${length}`);
    }
  }
}

function writeInt(writer, value) {
  if (value >= 0) {
    if (value < 0x80) return writer.byte(value);
    if (value < 0x100) return writer.byte(0xcc), writer.byte(value);
    if (value < 0x10000) return writer.byte(0xcd), writer.put("setUint16", 2, value);
    if (value < 0x100000000) return writer.byte(0xce), writer.put("setUint32", 4, value);
    return writer.byte(0xcf), writer.put("setBigUint64", 8, BigInt(value));
  }
  if (value >= -32) return writer.byte(value + 0x100);
  if (value >= -0x80) return writer.byte(0xd0), writer.put("setInt8", 1, value);
  if (value >= -0x8000) return writer.byte(0xd1), writer.put("setInt16", 2, value);
  if (value >= -0x80000000) return writer.byte(0xd2), writer.put("setInt32", 4, value);
  return writer.byte(0xd3), writer.put("setBigInt64", 8, BigInt(value));
}

function writeBigInt(writer, value) {
  if (value >= -(2n ** 63n) && value < 0n) return writer.byte(0xd3), writer.put("setBigInt64", 8, value);
  if (value >= 0n && value < 2n ** 64n) return writer.byte(0xcf), writer.put("setBigUint64", 8, value);
  throw new MsgpackError(`integer out of the 64-bit range: ${value}`);
}

function writeEntries(writer, entries) {
  writer.head(0x80, 16, [undefined, 0xde, 0xdf], entries.length);
  for (const [key, item] of entries) {
    writeValue(writer, key);
    writeValue(writer, item);
  }
}

function writeValue(writer, value) {
  if (value === null || value === undefined) return writer.byte(0xc0);
  if (value === false || value === true) return writer.byte(value ? 0xc3 : 0xc2);
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return writeInt(writer, value);
    return writer.byte(0xcb), writer.put("setFloat64", 8, value);
  }
  if (typeof value === "bigint") return writeBigInt(writer, value);
  if (typeof value === "string") {
    const bytes = utf8Encoder.encode(value);
    writer.head(0xa0, 32, [0xd9, 0xda, 0xdb], bytes.length);
    return writer.raw(bytes);
  }
  if (value instanceof Uint8Array) {
    writer.head(0, 0, [0xc4, 0xc5, 0xc6], value.length);
    return writer.raw(value);
  }
  if (Array.isArray(value)) {
    writer.head(0x90, 16, [undefined, 0xdc, 0xdd], value.length);
    return value.forEach((item) => writeValue(writer, item));
  }
  if (value instanceof Map) return writeEntries(writer, [...value.entries()]);
  if (typeof value === "object") return writeEntries(writer, Object.entries(value));
  throw new MsgpackError(`cannot encode a ${typeof value}`);
}

/** `value` as msgpack bytes (a Uint8Array). Whole numbers are ints, other numbers float64. */
export function encode(value) {
  const writer = new Writer();
  writeValue(writer, value);
  return writer.bytes.slice(0, writer.length);
}
