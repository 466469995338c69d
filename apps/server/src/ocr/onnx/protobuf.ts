/** Protobuf's wire format, read in place and written as parts: varints, fields, length-delimited bodies. */
export type Field = { no: number; wt: number; start: number; value: number; end: number };

export function varint(b: Uint8Array, p: number): [number, number] {
  let v = 0;
  let m = 1;
  for (;;) {
    const x = b[p++];
    if (x === undefined) throw new Error('truncated varint');
    v += (x & 0x7f) * m;
    m *= 128;
    if (x < 0x80) return [v, p];
  }
}

export function fields(b: Uint8Array, s = 0, e = b.length): Field[] {
  const out: Field[] = [];
  let p = s;
  while (p < e) {
    const start = p;
    const [tag, q] = varint(b, p);
    const no = Math.floor(tag / 8);
    const wt = tag & 7;
    let value = q;
    if (wt === 0) p = varint(b, q)[1];
    else if (wt === 1) p = q + 8;
    else if (wt === 5) p = q + 4;
    else if (wt === 2) {
      const [len, r] = varint(b, q);
      value = r;
      p = r + len;
    } else throw new Error(`protobuf wire type ${wt}`);
    if (p > e) throw new Error('truncated protobuf field');
    out.push({ no, wt, start, value, end: p });
  }
  return out;
}

const utf8 = new TextDecoder();
/** UTF-8 bytes of a string (names written into a message). */
export const enc = new TextEncoder();
export const str = (b: Uint8Array, f: Field) => utf8.decode(b.subarray(f.value, f.end));
export const f32 = (b: Uint8Array, p: number) =>
  new DataView(b.buffer, b.byteOffset + p, 4).getFloat32(0, true);
/** A varint field's value, or a packed field's values. */
export function ints(b: Uint8Array, f: Field): number[] {
  if (f.wt === 0) return [varint(b, f.value)[0]];
  const out: number[] = [];
  for (let p = f.value; p < f.end; ) {
    const [v, q] = varint(b, p);
    out.push(v);
    p = q;
  }
  return out;
}

export function putVarint(out: number[], v: number) {
  while (v >= 128) {
    out.push((v % 128) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
}
/** The tag and length of a length-delimited field. */
function head(no: number, length: number): Uint8Array {
  const out: number[] = [];
  putVarint(out, no * 8 + 2);
  putVarint(out, length);
  return Uint8Array.from(out);
}
/** A length-delimited field. */
export const lenField = (no: number, body: Uint8Array) => concat([head(no, body.length), body]);
/** A length-delimited field made of parts, as parts (nothing copied). */
export const lenParts = (no: number, parts: Uint8Array[]) => [head(no, size(parts)), ...parts];
export const size = (parts: Uint8Array[]) => parts.reduce((s, p) => s + p.length, 0);
export function varintField(no: number, v: number): Uint8Array {
  const out: number[] = [];
  putVarint(out, no * 8);
  putVarint(out, v);
  return Uint8Array.from(out);
}
export function floatField(no: number, v: number): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = no * 8 + 5;
  new DataView(out.buffer).setFloat32(1, v, true);
  return out;
}
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(size(parts));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
