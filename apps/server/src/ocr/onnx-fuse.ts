/**
 * Rewrites the PaddleOCR ONNX graphs in memory, at load, so that ONNX Runtime runs fewer passes over
 * the feature maps. paddle2onnx exports PP-LCNetV3 (both PP-OCRv4 models) with most of their time
 * spent in element-wise chains that ONNX Runtime does not fuse:
 *   - hardswish as Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6): 4 passes, made
 *     HardSigmoid(α = 1/6, β = 0.5) + Mul (both exist since opset 6: the models' opsets, 11 and 9,
 *     stay), which ONNX Runtime then fuses into the convolution before it as a HardSwish activation;
 *   - the learnable affine after every Conv (Mul by a scalar, Add a scalar), a bias Add or a
 *     BatchNormalization after a ConvTranspose: folded into the convolution's weights and bias;
 *   - the learnable affine after an activation, when the next Conv has no padding: folded into that
 *     Conv's weights and bias (exact: with padding, the border would see the shift, so never there);
 *     otherwise one BatchNormalization, which ONNX Runtime keeps in its blocked NCHWc layout where
 *     the scalar Mul and Add made it reorder the feature map out and back in;
 *   - x + x·s (the neck's squeeze-excitation with a residual, s per channel): x·(s + 1), the Add on
 *     the small per-channel tensor.
 * Only float rounding changes (|Δ| ≤ 3e-6 on the outputs; the OCR text and boxes stay the same).
 * The model files are never modified: the rewritten bytes go straight to InferenceSession.create.
 *
 * ONNX is protobuf: a small wire-format walker reads the graph's nodes and constants and writes back
 * only the graph; every other field (and every node left alone) is copied byte for byte.
 */

// ── protobuf wire format ────────────────────────────────────────────────────
type Field = { no: number; wt: number; start: number; value: number; end: number };

function varint(b: Uint8Array, p: number): [number, number] {
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

function fields(b: Uint8Array, s = 0, e = b.length): Field[] {
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
const enc = new TextEncoder();
const str = (b: Uint8Array, f: Field) => utf8.decode(b.subarray(f.value, f.end));
const f32 = (b: Uint8Array, p: number) => new DataView(b.buffer, b.byteOffset + p, 4).getFloat32(0, true);
/** A varint field's value, or a packed field's values. */
function ints(b: Uint8Array, f: Field): number[] {
  if (f.wt === 0) return [varint(b, f.value)[0]];
  const out: number[] = [];
  for (let p = f.value; p < f.end; ) {
    const [v, q] = varint(b, p);
    out.push(v);
    p = q;
  }
  return out;
}

function putVarint(out: number[], v: number) {
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
const lenField = (no: number, body: Uint8Array) => concat([head(no, body.length), body]);
/** A length-delimited field made of parts, as parts (nothing copied). */
const lenParts = (no: number, parts: Uint8Array[]) => [head(no, size(parts)), ...parts];
const size = (parts: Uint8Array[]) => parts.reduce((s, p) => s + p.length, 0);
function varintField(no: number, v: number): Uint8Array {
  const out: number[] = [];
  putVarint(out, no * 8);
  putVarint(out, v);
  return Uint8Array.from(out);
}
function floatField(no: number, v: number): Uint8Array {
  const out = new Uint8Array(5);
  out[0] = no * 8 + 5;
  new DataView(out.buffer).setFloat32(1, v, true);
  return out;
}
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(size(parts));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// ── the ONNX messages this needs ────────────────────────────────────────────
/** A float tensor (the only kind folded). */
type Tensor = { dims: number[]; data: Float32Array };
type Attr = {
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
type Node = {
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
function readTensor(b: Uint8Array, s: number, e: number): Tensor | null {
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
function writeTensor(name: string, t: Tensor): Uint8Array[] {
  const dims: number[] = [];
  for (const d of t.dims) putVarint(dims, d);
  return lenParts(5, [
    ...(dims.length ? [lenField(1, Uint8Array.from(dims))] : []),
    varintField(2, FLOAT),
    lenField(8, enc.encode(name)),
    ...lenParts(9, [new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)]),
  ]);
}

function readNode(b: Uint8Array, f: Field): Node {
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
function floatAttr(name: string, v: number): Attr {
  const raw = concat([lenField(1, enc.encode(name)), floatField(2, v), varintField(20, ATTR_FLOAT)]);
  return { name, f: v, raw: lenField(5, raw) };
}

function writeNode(n: Node): Uint8Array {
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

// ── the rewrite ─────────────────────────────────────────────────────────────
export type FuseCounts = {
  hardSwish: number;
  convAffine: number;
  affineIntoConv: number;
  affineToBatchNorm: number;
  residualScale: number;
  removedNodes: number;
};

class Graph {
  nodes: (Node | undefined)[];
  /** Constant tensors (initializers and Constant nodes' values) by name, decoded on first use. */
  private where = new Map<string, { start: number; end: number }>();
  private decoded = new Map<string, Tensor | null>();
  added = new Map<string, Tensor>();
  producer = new Map<string, number>();
  uses = new Map<string, number>();
  readers = new Map<string, number[]>();
  private fresh = 0;

  constructor(
    private readonly model: Uint8Array,
    nodes: Node[],
    initializers: Map<string, { start: number; end: number }>,
    readonly outputs: Set<string>,
  ) {
    this.nodes = nodes;
    this.where = initializers;
    for (const n of nodes)
      if (n.op === 'Constant' && n.domain === '' && n.outputs[0]) {
        const t = n.attrs.find((a) => a.name === 'value')?.t;
        if (t) this.where.set(n.outputs[0], t);
      }
    this.index();
  }

  /** A constant's value (never to be changed: it may be shared). */
  const(name: string | undefined): Tensor | undefined {
    if (name === undefined) return undefined;
    let t = this.decoded.get(name);
    if (t === undefined) {
      const at = this.where.get(name);
      t = at ? readTensor(this.model, at.start, at.end) : null;
      this.decoded.set(name, t);
    }
    return t ?? undefined;
  }

  index() {
    this.producer.clear();
    this.uses.clear();
    this.readers.clear();
    this.nodes.forEach((n, i) => {
      if (!n) return;
      for (const o of n.outputs) this.producer.set(o, i);
      for (const x of n.inputs) {
        if (!x) continue;
        this.uses.set(x, (this.uses.get(x) ?? 0) + 1);
        const r = this.readers.get(x);
        if (r) r.push(i);
        else this.readers.set(x, [i]);
      }
    });
    for (const o of this.outputs) this.uses.set(o, (this.uses.get(o) ?? 0) + 1);
  }

  /** The node that produces `name`, when it is its only consumer's input. */
  only(name: string | undefined): { node: Node; at: number } | undefined {
    if (!name || this.uses.get(name) !== 1 || this.outputs.has(name)) return undefined;
    const at = this.producer.get(name);
    const node = at === undefined ? undefined : this.nodes[at];
    return node && at !== undefined ? { node, at } : undefined;
  }

  /** The single node that reads `name`, if exactly one does. */
  consumer(name: string): { node: Node; at: number } | undefined {
    const at = this.readers.get(name)?.[0];
    if (this.uses.get(name) !== 1 || this.outputs.has(name) || at === undefined) return undefined;
    const node = this.nodes[at];
    return node ? { node, at } : undefined;
  }

  scalar(name: string | undefined): number | undefined {
    const t = this.const(name);
    // Rank 0 or 1 only: a scalar of higher rank would broadcast its operand to that rank.
    return t && t.data.length === 1 && t.dims.length <= 1 ? t.data[0] : undefined;
  }

  addConst(base: string, t: Tensor): string {
    const name = `${base}.fused${this.fresh++}`;
    this.added.set(name, t);
    this.decoded.set(name, t);
    return name;
  }
}

const isOp = (n: Node | undefined, op: string): n is Node => n?.op === op && n.domain === '';
const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1e-6;

/**
 * Per-channel values of a constant that broadcasts against an NCHW tensor along C only (a scalar,
 * [C], [C,1,1], [1,C,1,1]), expanded to `channels`; otherwise undefined.
 */
function perChannel(t: Tensor | undefined, channels: number): Float32Array | undefined {
  if (!t) return undefined;
  if (t.dims.length > 4) return undefined;
  if (t.data.length === 1) return new Float32Array(channels).fill(t.data[0] ?? 0);
  const d = [...t.dims];
  while (d.length < 4) d.unshift(1);
  if (d[0] !== 1 || d[1] !== channels || d[2] !== 1 || d[3] !== 1) return undefined;
  return t.data;
}

/** A BatchNormalization parameter: one value per channel. */
const vector = (t: Tensor | undefined, channels: number) =>
  t && t.dims.length === 1 && t.data.length === channels ? t.data : undefined;

/** Add(x, 3) → Clip(0, 6) → Mul(x, ·) → Div(·, 6)  ⇒  HardSigmoid(x; 1/6, 0.5) → Mul(x, ·). */
function fuseHardSwish(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const div = g.nodes[at];
    if (!isOp(div, 'Div') || !near(g.scalar(div.inputs[1]), 6)) continue;
    const mul = g.only(div.inputs[0]);
    if (!mul || !isOp(mul.node, 'Mul')) continue;
    const [m0, m1] = mul.node.inputs;
    const clip = g.only(m0)?.node.op === 'Clip' ? g.only(m0) : g.only(m1);
    if (!clip || !isOp(clip.node, 'Clip')) continue;
    const x = clip.node.outputs[0] === m0 ? m1 : m0;
    const attr = (n: string) => clip.node.attrs.find((a) => a.name === n)?.f;
    const lo = clip.node.inputs.length > 1 ? g.scalar(clip.node.inputs[1]) : attr('min');
    const hi = clip.node.inputs.length > 2 ? g.scalar(clip.node.inputs[2]) : attr('max');
    if (!near(lo, 0) || !near(hi, 6)) continue;
    const add = g.only(clip.node.inputs[0]);
    if (!add || !isOp(add.node, 'Add') || !x) continue;
    const [a0, a1] = add.node.inputs;
    if (!((a0 === x && near(g.scalar(a1), 3)) || (a1 === x && near(g.scalar(a0), 3)))) continue;
    const out = div.outputs[0] ?? '';
    const sig = `${out}.hardsigmoid`;
    g.nodes[add.at] = undefined;
    g.nodes[clip.at] = undefined;
    g.nodes[mul.at] = {
      op: 'HardSigmoid',
      domain: '',
      name: sig,
      inputs: [x],
      outputs: [sig],
      attrs: [floatAttr('alpha', 1 / 6), floatAttr('beta', 0.5)],
    };
    g.nodes[at] = { op: 'Mul', domain: '', name: out, inputs: [x, sig], outputs: [out], attrs: [] };
    count++;
  }
  g.index();
  return count;
}

/** Output channels of a Conv (W: [O, I/g, ...]) or a ConvTranspose with one group (W: [I, O, ...]). */
function outChannels(conv: Node, w: Tensor): number | undefined {
  if (conv.op === 'Conv') return w.dims[0];
  const group = conv.attrs.find((a) => a.name === 'group')?.i ?? 1;
  return group === 1 ? w.dims[1] : undefined;
}

/**
 * Scales output channel c of a conv's weights by s[c], in place (w is a copy only this conv reads).
 * Conv weights are [O, I/g, kH, kW]; a ConvTranspose's with one group [I, O, kH, kW].
 */
function scaleOut(conv: Node, w: Tensor, s: Float32Array) {
  const data = w.data;
  const [d0 = 1, d1 = 1] = w.dims;
  const outer = conv.op === 'Conv' ? 1 : d0;
  const channels = conv.op === 'Conv' ? d0 : d1;
  const per = data.length / (outer * channels);
  for (let i = 0, k = 0; i < outer; i++)
    for (let c = 0; c < channels; c++) {
      const f = s[c] as number;
      for (const end = k + per; k < end; k++) data[k] = (data[k] as number) * f;
    }
}

/**
 * Multiplies every weight by a, in place, and returns each output channel's sum of weights before.
 * (A small function of its own: V8 compiles its loop at once, where inlined in a long function the
 * loop ran interpreted for the whole first load, 10× slower.)
 */
function scaleAll(data: Float32Array, channels: number, a: number): Float64Array {
  const per = data.length / channels;
  const sums = new Float64Array(channels);
  for (let o = 0, k = 0; o < channels; o++) {
    let sum = 0;
    for (const end = k + per; k < end; k++) {
      const v = data[k] as number;
      sum += v;
      data[k] = v * a;
    }
    sums[o] = sum;
  }
  return sums;
}

/** A constant's tensor as a copy the caller may change (the graph keeps the original). */
function copied(t: Tensor): Tensor {
  return { dims: t.dims, data: new Float32Array(t.data) };
}

/**
 * Conv/ConvTranspose followed by per-channel Mul, Add or an inference BatchNormalization (as long as
 * each step is the previous one's only reader): the steps go into the weights and bias.
 */
function foldConvAffine(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const conv = g.nodes[at];
    if (!(isOp(conv, 'Conv') || isOp(conv, 'ConvTranspose')) || conv.outputs.length !== 1) continue;
    const weights = g.const(conv.inputs[1]);
    if (weights?.dims.length !== 4) continue;
    const channels = outChannels(conv, weights);
    if (!channels) continue;
    const biases = conv.inputs[2] ? g.const(conv.inputs[2])?.data : new Float32Array(channels);
    if (!biases || biases.length !== channels) continue;
    let w: Tensor | undefined;
    const bias = new Float32Array(biases);
    let folded = 0;
    for (;;) {
      const out = conv.outputs[0] ?? '';
      const next = g.consumer(out);
      if (!next) break;
      const n = next.node;
      let scale: Float32Array | undefined;
      let shift: Float32Array | undefined;
      if ((isOp(n, 'Mul') || isOp(n, 'Add')) && n.inputs.length === 2 && n.inputs[0] !== n.inputs[1]) {
        const v = perChannel(g.const(n.inputs[0] === out ? n.inputs[1] : n.inputs[0]), channels);
        if (!v) break;
        if (n.op === 'Mul') scale = v;
        else shift = v;
      } else if (isOp(n, 'BatchNormalization') && n.outputs.length === 1 && n.inputs[0] === out) {
        const [gamma, beta, mean, variance] = n.inputs.slice(1).map((s) => vector(g.const(s), channels));
        const eps = n.attrs.find((a) => a.name === 'epsilon')?.f ?? 1e-5;
        if (!gamma || !beta || !mean || !variance) break;
        const sc = gamma.map((v, c) => v / Math.sqrt((variance[c] as number) + eps));
        scale = sc;
        shift = beta.map((v, c) => v - (mean[c] as number) * (sc[c] as number));
      } else break;
      if (scale) {
        w ??= copied(weights);
        scaleOut(conv, w, scale);
        for (let c = 0; c < channels; c++) bias[c] = (bias[c] as number) * (scale[c] as number);
      }
      if (shift) for (let c = 0; c < channels; c++) bias[c] = (bias[c] as number) + (shift[c] as number);
      conv.outputs = [...n.outputs];
      for (const o of n.outputs) g.producer.set(o, at);
      g.nodes[next.at] = undefined;
      folded++;
    }
    if (!folded) continue;
    conv.raw = undefined;
    conv.inputs = [
      conv.inputs[0] ?? '',
      w ? g.addConst(conv.inputs[1] ?? 'W', w) : (conv.inputs[1] ?? ''),
      g.addConst(conv.inputs[2] ?? `${conv.inputs[1]}.bias`, { dims: [channels], data: bias }),
    ];
    count += folded;
  }
  g.index();
  return count;
}

/** Conv without padding reading Add(Mul(h, a), b) (scalars a, b): a and b go into its weights and bias. */
function foldAffineIntoConv(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const conv = g.nodes[at];
    if (!isOp(conv, 'Conv')) continue;
    const pads = conv.attrs.find((a) => a.name === 'pads')?.ints ?? [];
    const autoPad = conv.attrs.find((a) => a.name === 'auto_pad');
    if (pads.some((p) => p !== 0) || autoPad) continue;
    const weights = g.const(conv.inputs[1]);
    if (weights?.dims.length !== 4) continue;
    const channels = weights.dims[0] ?? 0;
    const bias = conv.inputs[2] ? g.const(conv.inputs[2])?.data : new Float32Array(channels);
    if (!bias || bias.length !== channels) continue;
    const add = g.only(conv.inputs[0]);
    if (!add || !isOp(add.node, 'Add')) continue;
    const [a0, a1] = add.node.inputs;
    const b = g.scalar(a1) ?? g.scalar(a0);
    const mul = g.only(g.scalar(a1) !== undefined ? a0 : a1);
    if (b === undefined || !mul || !isOp(mul.node, 'Mul')) continue;
    const [m0, m1] = mul.node.inputs;
    const a = g.scalar(m1) ?? g.scalar(m0);
    const h = g.scalar(m1) !== undefined ? m0 : m1;
    if (a === undefined || !h) continue;
    // The weights may be this pass's own copy already (a fold above): then changed in place.
    const w = g.added.has(conv.inputs[1] ?? '') ? weights : copied(weights);
    const sums = scaleAll(w.data, channels, a);
    const shifted = bias.map((v, o) => v + b * (sums[o] as number));
    conv.raw = undefined;
    conv.inputs = [
      h,
      w === weights ? (conv.inputs[1] ?? '') : g.addConst(conv.inputs[1] ?? 'W', w),
      g.addConst(conv.inputs[2] ?? `${conv.inputs[1]}.bias`, { dims: [channels], data: shifted }),
    ];
    g.nodes[add.at] = undefined;
    g.nodes[mul.at] = undefined;
    count++;
  }
  g.index();
  return count;
}

/**
 * Channels of a tensor made by a Conv (N,C,H,W), through element-wise ops; undefined when unsure.
 */
function channelsOf(g: Graph, name: string, depth = 0): number | undefined {
  const at = g.producer.get(name);
  const n = at === undefined ? undefined : g.nodes[at];
  if (n?.domain !== '' || depth > 8) return undefined;
  if (n.op === 'Conv') {
    const w = g.const(n.inputs[1]);
    return w?.dims.length === 4 ? w.dims[0] : undefined;
  }
  if (!['Mul', 'Add', 'HardSigmoid', 'Relu', 'Sigmoid', 'BatchNormalization'].includes(n.op))
    return undefined;
  const inputs = n.op === 'BatchNormalization' ? n.inputs.slice(0, 1) : n.inputs.filter((x) => !g.const(x));
  const found = inputs.map((x) => channelsOf(g, x, depth + 1));
  const c = found[0];
  if (!c || !found.every((f) => f === c)) return undefined;
  // A constant operand must not change the shape (no broadcast beyond N,C,H,W).
  const consts = n.op === 'BatchNormalization' ? [] : n.inputs.filter((x) => g.const(x));
  return consts.every((x) => perChannel(g.const(x), c)) ? c : undefined;
}

/**
 * Mul(h, a) → Add(·, b), a and b per channel (the affine after an activation, when the next Conv
 * pads), of a Conv's NCHW output  ⇒  one BatchNormalization(scale a, bias b, mean 0, variance 1,
 * ε 0): one pass instead of two, and one ONNX Runtime keeps in its blocked (NCHWc) layout, where
 * the scalar Mul and Add forced a reorder out and back in.
 */
function affineToBatchNorm(g: Graph): number {
  let count = 0;
  for (let at = 0; at < g.nodes.length; at++) {
    const add = g.nodes[at];
    if (!isOp(add, 'Add') || add.inputs.length !== 2) continue;
    const [a0, a1] = add.inputs;
    const bName = g.const(a1) ? a1 : a0;
    const mul = g.only(bName === a1 ? a0 : a1);
    if (!mul || !isOp(mul.node, 'Mul') || mul.node.inputs.length !== 2) continue;
    const [m0, m1] = mul.node.inputs;
    const aName = g.const(m1) ? m1 : m0;
    const h = aName === m1 ? m0 : m1;
    if (!h || g.const(h)) continue;
    const channels = channelsOf(g, h);
    if (!channels) continue;
    const scale = perChannel(g.const(aName), channels);
    const shift = perChannel(g.const(bName), channels);
    if (!scale || !shift) continue;
    const out = add.outputs[0] ?? '';
    const dims = [channels];
    g.nodes[mul.at] = undefined;
    g.nodes[at] = {
      op: 'BatchNormalization',
      domain: '',
      name: out,
      inputs: [
        h,
        g.addConst(`${out}.scale`, { dims, data: Float32Array.from(scale) }),
        g.addConst(`${out}.bias`, { dims, data: Float32Array.from(shift) }),
        g.addConst(`${out}.mean`, { dims, data: new Float32Array(channels) }),
        g.addConst(`${out}.var`, { dims, data: new Float32Array(channels).fill(1) }),
      ],
      outputs: [out],
      attrs: [floatAttr('epsilon', 0)],
    };
    count++;
  }
  g.index();
  return count;
}

/** Add(x, Mul(x, s)) with s from a GlobalAveragePool branch (N,C,1,1)  ⇒  Mul(x, Add(s, 1)). */
function fuseResidualScale(g: Graph): number {
  let count = 0;
  const one = g.addConst('one', { dims: [], data: Float32Array.of(1) });
  for (let at = 0; at < g.nodes.length; at++) {
    const add = g.nodes[at];
    if (!isOp(add, 'Add') || add.inputs.length !== 2) continue;
    const [a0 = '', a1 = ''] = add.inputs;
    const mul = g.only(a1)?.node.op === 'Mul' ? g.only(a1) : g.only(a0);
    if (!mul || !isOp(mul.node, 'Mul')) continue;
    const x = mul.node.outputs[0] === a1 ? a0 : a1;
    const [m0, m1] = mul.node.inputs;
    const s = m0 === x ? m1 : m1 === x ? m0 : undefined;
    if (!s || !squeezed(g, s)) continue;
    const out = add.outputs[0] ?? '';
    const plus = `${out}.plus1`;
    g.nodes[mul.at] = { op: 'Add', domain: '', name: plus, inputs: [s, one], outputs: [plus], attrs: [] };
    g.nodes[at] = { op: 'Mul', domain: '', name: out, inputs: [x, plus], outputs: [out], attrs: [] };
    count++;
  }
  g.index();
  return count;
}

/** Whether a tensor is per-channel (N,C,1,1): an element-wise op of something a GlobalAveragePool made. */
function squeezed(g: Graph, name: string, depth = 0): boolean {
  const at = g.producer.get(name);
  const n = at === undefined ? undefined : g.nodes[at];
  if (!n || depth > 8) return false;
  if (n.domain !== '') return false;
  if (n.op === 'GlobalAveragePool') return true;
  if (['HardSigmoid', 'Sigmoid', 'Relu'].includes(n.op)) return squeezed(g, n.inputs[0] ?? '', depth + 1);
  // A 1×1 convolution of an (N,C,1,1) tensor stays (N,C',1,1).
  if (n.op === 'Conv') {
    const w = g.const(n.inputs[1] ?? '');
    const pads = n.attrs.find((a) => a.name === 'pads')?.ints ?? [];
    const autoPad = n.attrs.some((a) => a.name === 'auto_pad');
    return (
      w?.dims.length === 4 &&
      w.dims[2] === 1 &&
      w.dims[3] === 1 &&
      pads.every((p) => p === 0) &&
      !autoPad &&
      squeezed(g, n.inputs[0] ?? '', depth + 1)
    );
  }
  return false;
}

/** Nodes whose outputs nobody reads (constants left over by the folds). */
function sweep(g: Graph): number {
  let removed = 0;
  for (let changed = true; changed; ) {
    changed = false;
    g.index();
    g.nodes.forEach((n, i) => {
      if (n?.outputs.every((o) => !o || !g.uses.get(o))) {
        g.nodes[i] = undefined;
        removed++;
        changed = true;
      }
    });
  }
  return removed;
}

/**
 * The model's bytes with the chains above rewritten (the input when nothing matched), and how many
 * of each were rewritten. `skip` leaves some rewrites out (to measure what each one brings).
 */
export function fuseModel(
  model: Uint8Array,
  skip: Partial<Record<keyof FuseCounts, boolean>> = {},
): { bytes: Uint8Array; counts: FuseCounts } {
  const top = fields(model);
  const gf = top.find((f) => f.no === 7 && f.wt === 2);
  const counts: FuseCounts = {
    hardSwish: 0,
    convAffine: 0,
    affineIntoConv: 0,
    affineToBatchNorm: 0,
    residualScale: 0,
    removedNodes: 0,
  };
  if (!gf) return { bytes: model, counts };
  const graphFields = fields(model, gf.value, gf.end);
  const nodes: Node[] = [];
  const initializers = new Map<string, { start: number; end: number }>();
  const outputs = new Set<string>();
  const inputs = new Set<string>();
  for (const f of graphFields) {
    if (f.no === 1) nodes.push(readNode(model, f));
    else if (f.no === 5) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 8);
      if (name) initializers.set(str(model, name), { start: f.value, end: f.end });
    } else if (f.no === 11) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (name) inputs.add(str(model, name));
    } else if (f.no === 12) {
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (name) outputs.add(str(model, name));
    }
  }
  // Subgraphs (If/Loop bodies) read outer names invisibly: leave such models alone.
  if (nodes.some((n) => n.attrs.some((a) => a.graph))) return { bytes: model, counts };
  // An initializer that is also a graph input is only a default: the caller may feed another value.
  for (const name of inputs) initializers.delete(name);
  const g = new Graph(model, nodes, initializers, outputs);
  const before = nodes.length;
  if (!skip.convAffine) counts.convAffine = foldConvAffine(g);
  if (!skip.hardSwish) counts.hardSwish = fuseHardSwish(g);
  if (!skip.affineIntoConv) counts.affineIntoConv = foldAffineIntoConv(g);
  if (!skip.affineToBatchNorm) counts.affineToBatchNorm = affineToBatchNorm(g);
  if (!skip.residualScale) counts.residualScale = fuseResidualScale(g);
  sweep(g);
  const kept = g.nodes.filter((n): n is Node => n !== undefined);
  counts.removedNodes = before - kept.length;
  if (kept.length === before && Object.values(counts).every((n) => n === 0)) return { bytes: model, counts };

  const used = new Set(kept.flatMap((n) => n.inputs));
  const made = new Set(kept.flatMap((n) => n.outputs));
  const parts: Uint8Array[] = [];
  let nodesWritten = false;
  for (const f of graphFields) {
    if (f.no === 1) {
      if (!nodesWritten) parts.push(...kept.map(writeNode));
      nodesWritten = true;
    } else if (f.no === 13) {
      // Shape hints (value_info) of tensors the rewrite removed go with them.
      const name = fields(model, f.value, f.end).find((x) => x.no === 1);
      if (!name || made.has(str(model, name))) parts.push(model.subarray(f.start, f.end));
    } else parts.push(model.subarray(f.start, f.end));
  }
  for (const [name, t] of g.added) if (used.has(name)) parts.push(...writeTensor(name, t));
  return {
    bytes: concat(top.flatMap((f) => (f === gf ? lenParts(7, parts) : [model.subarray(f.start, f.end)]))),
    counts,
  };
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
