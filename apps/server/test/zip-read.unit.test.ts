// The ZIP reader behind imports (lib/zip.ts): entries from the central directory only, limits
// checked before anything is inflated, and never more inflated than an entry declared.
import { deflateRawSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { inflateEntry, ZipTooLarge, ZipUnreadable, zipEntries } from '../src/lib/zip.js';

const limits = { maxEntries: 50, maxInflatedBytes: 100_000_000 };
const csv = Buffer.from('Date,Odometer,Litres,Total\n2024-01-01,1000,40,60\n');

/** One deflated entry in ZIP64 form: sizes and offset 0xFFFFFFFF, the real ones in extra field 1. */
function zip64(name: string, content: Buffer, declared = content.length): Buffer {
  const data = deflateRawSync(content);
  const file = Buffer.from(name);
  const extra = Buffer.alloc(4 + 24);
  extra.writeUInt16LE(1, 0);
  extra.writeUInt16LE(24, 2);
  extra.writeBigUInt64LE(BigInt(declared), 4);
  extra.writeBigUInt64LE(BigInt(data.length), 12);
  extra.writeBigUInt64LE(0n, 20);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0xffffffff, 18);
  local.writeUInt32LE(0xffffffff, 22);
  local.writeUInt16LE(file.length, 26);
  local.writeUInt16LE(extra.length, 28);
  const body = Buffer.concat([local, file, extra, data]);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(0xffffffff, 20);
  central.writeUInt32LE(0xffffffff, 24);
  central.writeUInt16LE(file.length, 28);
  central.writeUInt16LE(extra.length, 30);
  central.writeUInt32LE(0xffffffff, 42);
  const directory = Buffer.concat([central, file, extra]);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeBigUInt64LE(1n, 24);
  end64.writeBigUInt64LE(1n, 32);
  end64.writeBigUInt64LE(BigInt(directory.length), 40);
  end64.writeBigUInt64LE(BigInt(body.length), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(body.length + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([body, directory, end64, locator, end]);
}

describe('zipEntries', () => {
  it('lists what the directory declares, and inflates each entry to its bytes', () => {
    const zip = zipSync({
      'b.csv': csv,
      'a/readme.txt': Buffer.from('hello'),
      'photo.jpg': [new Uint8Array(10), { level: 0 }],
    });
    const entries = zipEntries(zip, limits);
    expect(entries.map((e) => [e.name, e.size])).toEqual([
      ['b.csv', csv.length],
      ['a/readme.txt', 5],
      ['photo.jpg', 10],
    ]);
    expect(inflateEntry(zip, entries[0] as (typeof entries)[0]).equals(csv)).toBe(true);
    expect(inflateEntry(zip, entries[2] as (typeof entries)[0])).toEqual(Buffer.alloc(10));
  });

  it('reads ZIP64 sizes and offsets', () => {
    const zip = zip64('big.csv', csv);
    const [entry] = zipEntries(zip, limits);
    expect(entry).toMatchObject({ name: 'big.csv', size: csv.length, offset: 0, method: 8 });
    expect(inflateEntry(zip, entry as NonNullable<typeof entry>).equals(csv)).toBe(true);
    // A ZIP64 entry declaring 5 GB is over the limit, read from the directory alone.
    expect(() => zipEntries(zip64('huge.csv', csv, 5e9), limits)).toThrow(ZipTooLarge);
  });

  it('refuses over the entry and size limits, saying which', () => {
    const files = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}.csv`, csv]));
    expect(zipEntries(zipSync(files(50)), limits)).toHaveLength(50);
    expect(() => zipEntries(zipSync(files(51)), limits)).toThrow(
      expect.objectContaining({ limit: 'entries' }),
    );
    expect(() => zipEntries(zipSync(files(2)), { ...limits, maxInflatedBytes: csv.length * 2 - 1 })).toThrow(
      expect.objectContaining({ limit: 'inflated' }),
    );
  });

  it('stops inflating at one byte past the declared size', () => {
    const zip = zip64('liar.csv', csv, 10);
    const [entry] = zipEntries(zip, limits);
    expect(() => inflateEntry(zip, entry as NonNullable<typeof entry>)).toThrow(
      expect.objectContaining({ limit: 'undeclared' }),
    );
  });

  it('answers ZipUnreadable for what is not a whole ZIP', () => {
    const zip = Buffer.from(zipSync({ 'a.csv': csv }));
    expect(() => zipEntries(zip.subarray(0, 20), limits)).toThrow(ZipUnreadable);
    expect(() => zipEntries(Buffer.from('PK\x03\x04 not a zip at all'), limits)).toThrow(ZipUnreadable);
    const [entry] = zipEntries(zip, limits);
    const moved = { ...(entry as NonNullable<typeof entry>), offset: zip.length - 4 };
    expect(() => inflateEntry(zip, moved)).toThrow(ZipUnreadable);
  });
});
