/** The ONNX messages the rewrite reads and writes: tensors, nodes, attributes (onnx.proto field numbers). */
import {
  concat,
  enc,
  type Field,
  f32,
  fields,
  floatField,
  ints,
  lenField,
  lenParts,
  putVarint,
  str,
  varint,
  varintField,
} from './protobuf.js';

/** A float tensor (the only kind folded). */
export type Tensor = { dims: number[]; data: Float32Array };
export type Attr = {
  name: string;
  raw: Uint8Array;
  f?: number;
  i?: number;
  ints?: number[];
  /** Where a tensor value's bytes are (decoded only when a fold needs it). */
  t?: { start: number; end: number };
  /** A subgraph (If, Loop, Scan): its nodes read outer names the rewrite would not see. */
  graph?: boolean;
};
export type Node = {
  inputs: string[];
  outputs: string[];
  op: string;
  domain: string;
  name: string;
  attrs: Attr[];
  /** The node's bytes as read; dropped once the node changes. */
  raw?: Uint8Array;
};

const FLOAT = 1;

/** TensorProto → float data, or null for any other type (or external data). */
export function readTensor(b: Uint8Array, s: number, e: number): Tensor | null {
  const dims: number[] = [];
  let type = 0;
  let raw: Field | undefined;
  const floats: number[] = [];
  for (const f of fields(b, s, e)) {
    if (f.no === 1) dims.push(...ints(b, f));
    else if (f.no === 2) type = varint(b, f.value)[0];
    else if (f.no === 9) raw = f;
    else if (f.no === 4) {
      if (f.wt === 5) floats.push(f32(b, f.value));
      else for (let p = f.value; p < f.end; p += 4) floats.push(f32(b, p));
    } else if (f.no === 13 || f.no === 14) return null;
  }
  if (type !== FLOAT) return null;
  const size = dims.reduce((a, d) => a * d, 1);
  if (!raw) return floats.length === size ? { dims, data: Float32Array.from(floats) } : null;
  if (raw.end - raw.value !== size * 4) return null;
  // A view of the model's bytes when 4-byte aligned (never written to: folds copy first), else a copy.
  const at = b.byteOffset + raw.value;
  if (at % 4 === 0) return { dims, data: new Float32Array(b.buffer, at, size) };
  const bytes = new Uint8Array(size * 4);
  bytes.set(b.subarray(raw.value, raw.end));
  return { dims, data: new Float32Array(bytes.buffer) };
}

/** A graph initializer (GraphProto field 5), as parts. */
export function writeTensor(name: string, t: Tensor): Uint8Array[] {
  const dims: number[] = [];
  for (const d of t.dims) putVarint(dims, d);
  return lenParts(5, [
    ...(dims.length ? [lenField(1, Uint8Array.from(dims))] : []),
    varintField(2, FLOAT),
    lenField(8, enc.encode(name)),
    ...lenParts(9, [new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)]),
  ]);
}

export function readNode(b: Uint8Array, f: Field): Node {
  const n: Node = {
    inputs: [],
    outputs: [],
    op: '',
    domain: '',
    name: '',
    attrs: [],
    raw: b.subarray(f.start, f.end),
  };
  for (const x of fields(b, f.value, f.end)) {
    if (x.no === 1) n.inputs.push(str(b, x));
    else if (x.no === 2) n.outputs.push(str(b, x));
    else if (x.no === 3) n.name = str(b, x);
    else if (x.no === 4) n.op = str(b, x);
    else if (x.no === 7) n.domain = str(b, x);
    else if (x.no === 5) {
      const a: Attr = { name: '', raw: b.subarray(x.start, x.end) };
      for (const y of fields(b, x.value, x.end)) {
        if (y.no === 1) a.name = str(b, y);
        else if (y.no === 2) a.f = f32(b, y.value);
        else if (y.no === 3) a.i = varint(b, y.value)[0];
        else if (y.no === 8) a.ints = [...(a.ints ?? []), ...ints(b, y)];
        else if (y.no === 5) a.t = { start: y.value, end: y.end };
        else if (y.no === 6 || y.no === 11) a.graph = true;
      }
      n.attrs.push(a);
    }
  }
  return n;
}

const ATTR_FLOAT = 1;
export function floatAttr(name: string, v: number): Attr {
  const raw = concat([lenField(1, enc.encode(name)), floatField(2, v), varintField(20, ATTR_FLOAT)]);
  return { name, f: v, raw: lenField(5, raw) };
}

export function writeNode(n: Node): Uint8Array {
  if (n.raw) return n.raw;
  const body = concat([
    ...n.inputs.map((s) => lenField(1, enc.encode(s))),
    ...n.outputs.map((s) => lenField(2, enc.encode(s))),
    ...(n.name ? [lenField(3, enc.encode(n.name))] : []),
    lenField(4, enc.encode(n.op)),
    ...(n.domain ? [lenField(7, enc.encode(n.domain))] : []),
    ...n.attrs.map((a) => a.raw),
  ]);
  return lenField(1, body);
}

/** How many nodes of each op type a model's graph has (for tests and diagnostics). */
export function opCounts(model: Uint8Array): Record<string, number> {
  const counts: Record<string, number> = {};
  const gf = fields(model).find((f) => f.no === 7 && f.wt === 2);
  if (!gf) return counts;
  for (const f of fields(model, gf.value, gf.end))
    if (f.no === 1) {
      const n = readNode(model, f);
      const op = n.domain ? `${n.domain}:${n.op}` : n.op;
      counts[op] = (counts[op] ?? 0) + 1;
    }
  return counts;
}
