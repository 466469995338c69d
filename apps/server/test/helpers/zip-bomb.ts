import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * Hostile ZIPs for the import's limits, built without ever holding what they inflate to: one
 * deflate stream of `line` repeated up to `bytes`, written once and named by `entries` entries
 * (as the overlapping-entry bombs do). `declare` sets the size the directory states for each entry
 * (the truth by default; smaller to make a ZIP that lies).
 */
export async function zipBomb(o: {
  /** The file's first line (a CSV header), once. */
  header?: string;
  line: string;
  bytes: number;
  entries?: number;
  declare?: number;
}): Promise<Buffer> {
  const { data, crc, size } = await deflateRepeated(o.header ?? '', o.line, o.bytes);
  const declared = o.declare ?? size;
  const count = o.entries ?? 1;
  // One local header and its data; every entry of the directory points at it (offset 0).
  const first = Buffer.from('history-0.csv');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflated
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(first.length, 26);
  const body = Buffer.concat([local, first, data]);
  const central: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const name = Buffer.from(`history-${i}.csv`);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(declared, 24);
    entry.writeUInt16LE(name.length, 28);
    central.push(entry, name);
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(body.length, 16);
  return Buffer.concat([body, directory, end]);
}

/** `header`, then `line` repeated to `bytes`, deflated a megabyte at a time: the deflated bytes, CRC-32 and size. */
async function deflateRepeated(header: string, line: string, bytes: number) {
  const chunk = Buffer.from(line.repeat(Math.ceil((1 << 20) / line.length)));
  const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const head = Buffer.from(header);
  let crc = crc32(head);
  deflate.write(head);
  for (let left = bytes; left > 0; left -= chunk.length) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(part, crc);
    if (!deflate.write(part)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(out), crc, size: head.length + bytes };
}
