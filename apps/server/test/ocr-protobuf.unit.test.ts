/**
 * The protobuf wire format and the ONNX messages the model rewrite reads and writes (onnx/protobuf.ts,
 * onnx/model.ts), on messages written here byte by byte.
 */
import { describe, expect, it } from 'vitest';
import { floatAttr, readNode, readTensor, writeNode, writeTensor } from '../src/ocr/onnx/model.js';
import {
  concat,
  enc,
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
} from '../src/ocr/onnx/protobuf.js';

const bytes = (...xs: number[]) => Uint8Array.from(xs);

describe('protobuf wire format', () => {
  it('writes and reads varints of every size, past 32 bits too', () => {
    for (const v of [0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 32 + 5, 2 ** 45 - 1]) {
      const out: number[] = [];
      putVarint(out, v);
      expect(varint(Uint8Array.from(out), 0)).toEqual([v, out.length]);
    }
    // The spec's own example: 300 is AC 02.
    const out: number[] = [];
    putVarint(out, 300);
    expect(out).toEqual([0xac, 0x02]);
  });

  it('splits a message into its fields with where each value is', () => {
    const msg = concat([varintField(2, 150), lenField(8, enc.encode('conv_w')), floatField(4, 1.5)]);
    const f = fields(msg);
    expect(f.map((x) => [x.no, x.wt])).toEqual([
      [2, 0],
      [8, 2],
      [4, 5],
    ]);
    expect(varint(msg, f[0]?.value ?? -1)[0]).toBe(150);
    expect(str(msg, f[1] as (typeof f)[number])).toBe('conv_w');
    expect(f32(msg, f[2]?.value ?? -1)).toBe(1.5);
    expect(f.at(-1)?.end).toBe(msg.length);
  });

  it('reads the fields of a nested message inside its parent, in place', () => {
    const inner = concat([varintField(1, 7), varintField(1, 9)]);
    const msg = concat([varintField(3, 1), lenField(5, inner)]);
    const outer = fields(msg).find((x) => x.no === 5);
    expect(outer).toBeDefined();
    const nested = fields(msg, outer?.value, outer?.end);
    expect(nested.map((x) => varint(msg, x.value)[0])).toEqual([7, 9]);
  });

  it('reads a repeated int field written packed or one by one', () => {
    const packed: number[] = [];
    for (const v of [1, 3, 200]) putVarint(packed, v);
    const msg = concat([lenField(1, Uint8Array.from(packed)), varintField(1, 4)]);
    expect(fields(msg).flatMap((x) => ints(msg, x))).toEqual([1, 3, 200, 4]);
  });

  it('writes a body made of parts with the same bytes as the joined body', () => {
    const parts = [bytes(1, 2, 3), bytes(), bytes(4, 5)];
    expect(concat(lenParts(9, parts))).toEqual(lenField(9, concat(parts)));
    expect(lenField(9, concat(parts))).toEqual(bytes(0x4a, 5, 1, 2, 3, 4, 5));
  });

  it('refuses a truncated varint, a field longer than its message and a group', () => {
    expect(() => varint(bytes(0x80, 0x80), 0)).toThrow('truncated varint');
    expect(() => fields(bytes(0x0a, 5, 1, 2))).toThrow('truncated protobuf field');
    expect(() => fields(bytes(0x0b))).toThrow('protobuf wire type 3');
  });
});

describe('ONNX messages', () => {
  const node = concat([
    lenField(1, enc.encode('x')),
    lenField(1, enc.encode('w')),
    lenField(2, enc.encode('y')),
    lenField(3, enc.encode('conv1')),
    lenField(4, enc.encode('Conv')),
    // attribute "pads": ints 0 0 0 0 (AttributeProto: name 1, ints 8, type 20 = INTS 7)
    lenField(
      5,
      concat([lenField(1, enc.encode('pads')), lenField(8, bytes(0, 0, 0, 0)), varintField(20, 7)]),
    ),
  ]);
  const nodeField = () => {
    const graph = lenField(1, node);
    return { graph, f: fields(graph)[0] as ReturnType<typeof fields>[number] };
  };

  it('reads a node: inputs, outputs, name, op and attributes', () => {
    const { graph, f } = nodeField();
    const n = readNode(graph, f);
    expect(n).toMatchObject({ inputs: ['x', 'w'], outputs: ['y'], name: 'conv1', op: 'Conv', domain: '' });
    expect(n.attrs.map((a) => [a.name, a.ints])).toEqual([['pads', [0, 0, 0, 0]]]);
  });

  it('writes a node it left alone byte for byte, and a changed one readable again', () => {
    const { graph, f } = nodeField();
    const n = readNode(graph, f);
    expect(writeNode(n)).toEqual(graph);
    const changed = { ...n, raw: undefined, op: 'HardSigmoid', attrs: [floatAttr('alpha', 0.25)] };
    const again = writeNode(changed);
    const back = readNode(again, fields(again)[0] as ReturnType<typeof fields>[number]);
    expect(back).toMatchObject({ inputs: ['x', 'w'], outputs: ['y'], op: 'HardSigmoid' });
    expect(back.attrs.map((a) => [a.name, a.f])).toEqual([['alpha', 0.25]]);
  });

  it('writes a float initializer that reads back the same, and reads float_data as well as raw_data', () => {
    const t = { dims: [2, 3], data: Float32Array.of(1, -2, 3.5, 0, 1e-3, 6) };
    const init = concat(writeTensor('w.fused0', t));
    const f = fields(init)[0];
    expect(f?.no).toBe(5); // GraphProto.initializer
    const back = readTensor(init, f?.value ?? 0, f?.end ?? 0);
    expect(back?.dims).toEqual([2, 3]);
    expect([...(back?.data ?? [])]).toEqual([...t.data]);
    const name = fields(init, f?.value, f?.end).find((x) => x.no === 8);
    expect(name && str(init, name)).toBe('w.fused0');

    const floats = concat([varintField(1, 2), varintField(2, 1), floatField(4, 0.5), floatField(4, 2)]);
    expect([...(readTensor(floats, 0, floats.length)?.data ?? [])]).toEqual([0.5, 2]);
  });

  it('leaves tensors of another type, or of the wrong size, undecoded', () => {
    const int64 = concat([varintField(1, 1), varintField(2, 7), lenField(9, new Uint8Array(8))]);
    expect(readTensor(int64, 0, int64.length)).toBeNull();
    const short = concat([varintField(1, 3), varintField(2, 1), lenField(9, new Uint8Array(8))]);
    expect(readTensor(short, 0, short.length)).toBeNull();
  });
});
