import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';

/**
 * A ZIP written as a stream (fflate): entries are added one at a time and their bytes flow out as
 * they are compressed, waiting whenever the reader is behind, so a large archive is never whole in
 * memory. Text entries are deflated; files already compressed (JPEG photos) are stored as they are.
 */
export class ZipStream {
  readonly stream = new PassThrough();
  private readonly zip: Zip;

  constructor() {
    this.zip = new Zip((err, chunk, final) => {
      if (err) {
        this.stream.destroy(err);
        return;
      }
      this.stream.write(chunk);
      if (final) this.stream.end();
    });
  }

  /** Waits until the reader took what was written (backpressure). */
  private async drained() {
    if (this.stream.destroyed) throw new Error('the ZIP reader went away');
    if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
  }

  async addText(name: string, text: string) {
    const entry = new ZipDeflate(name, { level: 6 });
    this.zip.add(entry);
    entry.push(strToU8(text), true);
    await this.drained();
  }

  async addFile(name: string, bytes: Buffer | Readable) {
    const entry = new ZipPassThrough(name);
    this.zip.add(entry);
    for await (const chunk of Buffer.isBuffer(bytes) ? [bytes] : bytes) {
      entry.push(chunk instanceof Uint8Array ? chunk : strToU8(String(chunk)));
      await this.drained();
    }
    entry.push(new Uint8Array(0), true);
  }

  end() {
    this.zip.end();
  }

  fail(err: Error) {
    this.zip.terminate();
    this.stream.destroy(err);
  }
}

/** One file of a ZIP as its central directory declares it. */
export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflated (others are not read). */
  method: number;
  encrypted: boolean;
  compressedSize: number;
  /** The inflated size the archive declares (checked while inflating: it may lie). */
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
};

export type ZipLimits = { maxEntries: number; maxInflatedBytes: number };

/** An archive over a limit: too many entries, too many bytes once inflated, or an entry that inflates past what it declared. */
export class ZipTooLarge extends Error {
  constructor(readonly limit: 'entries' | 'inflated' | 'undeclared') {
    super(`ZIP over its limit: ${limit}`);
  }
}
/** Bytes that are not a ZIP this reader can read (truncated, damaged, split over disks). */
export class ZipUnreadable extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of a ZIP, read from its central directory only: nothing is inflated. Refuses
 * (ZipTooLarge) an archive with more than `maxEntries` entries, or whose entries declare more than
 * `maxInflatedBytes` in all, as soon as the directory says so.
 */
export function zipEntries(zip: Uint8Array, limits: ZipLimits): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const u64 = (at: number) => Number(view.getBigUint64(at, true));
  try {
    // The end record is in the last 22 bytes plus a comment of at most 65,535.
    let end = -1;
    for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--)
      if (u32(at) === EOCD) {
        end = at;
        break;
      }
    if (end < 0) throw new ZipUnreadable('no end of central directory');
    let count = u16(end + 10);
    let dirSize = u32(end + 12);
    let dirStart = u32(end + 16);
    if ((count === 0xffff || dirSize === 0xffffffff || dirStart === 0xffffffff) && end >= 20) {
      if (u32(end - 20) === ZIP64_LOCATOR) {
        const at = u64(end - 12);
        if (u32(at) !== ZIP64_EOCD) throw new ZipUnreadable('no ZIP64 end record');
        count = u64(at + 32);
        dirSize = u64(at + 40);
        dirStart = u64(at + 48);
      }
    }
    if (count > limits.maxEntries) throw new ZipTooLarge('entries');
    const entries: ZipEntry[] = [];
    let inflated = 0;
    // The directory is walked whatever its end record counts (which may understate it).
    for (let at = dirStart; at < dirStart + dirSize && u32(at) === CENTRAL; ) {
      if (entries.length === limits.maxEntries) throw new ZipTooLarge('entries');
      const flags = u16(at + 8);
      const nameLength = u16(at + 28);
      const extraLength = u16(at + 30);
      const name = Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString(
        flags & 0x800 ? 'utf8' : 'latin1',
      );
      const entry: ZipEntry = {
        name,
        method: u16(at + 10),
        encrypted: (flags & 1) === 1,
        compressedSize: u32(at + 20),
        size: u32(at + 24),
        offset: u32(at + 42),
      };
      readZip64Extra(view, at + 46 + nameLength, extraLength, entry);
      inflated += entry.size;
      if (inflated > limits.maxInflatedBytes) throw new ZipTooLarge('inflated');
      entries.push(entry);
      at += 46 + nameLength + extraLength + u16(at + 32);
    }
    return entries;
  } catch (err) {
    if (err instanceof ZipTooLarge || err instanceof ZipUnreadable) throw err;
    throw new ZipUnreadable('damaged ZIP', { cause: err }); // a field pointing past the end (RangeError)
  }
}

/** Sizes and offset too large for 32 bits are in the ZIP64 extra field (id 1), in this order. */
function readZip64Extra(view: DataView, start: number, length: number, e: ZipEntry) {
  for (let at = start; at + 4 <= start + length; ) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 1) {
      let field = at + 4;
      const next = () => {
        const v = Number(view.getBigUint64(field, true));
        field += 8;
        return v;
      };
      if (e.size === 0xffffffff) e.size = next();
      if (e.compressedSize === 0xffffffff) e.compressedSize = next();
      if (e.offset === 0xffffffff) e.offset = next();
      return;
    }
    at += 4 + size;
  }
}

/**
 * An entry's bytes, inflated. Never produces more than the entry declared: inflating stops at
 * the declared size plus one byte (ZipTooLarge 'undeclared'), so a lying directory cannot make
 * the reader hold more than the limits zipEntries checked.
 */
export function inflateEntry(zip: Uint8Array, e: ZipEntry): Buffer {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let data: Uint8Array;
  try {
    if (view.getUint32(e.offset, true) !== LOCAL) throw new ZipUnreadable('no local header');
    const start = e.offset + 30 + view.getUint16(e.offset + 26, true) + view.getUint16(e.offset + 28, true);
    if (start + e.compressedSize > zip.length) throw new ZipUnreadable('entry past the end');
    data = zip.subarray(start, start + e.compressedSize);
  } catch (err) {
    if (err instanceof ZipUnreadable) throw err;
    throw new ZipUnreadable('damaged ZIP', { cause: err });
  }
  if (e.encrypted || (e.method !== 0 && e.method !== 8)) throw new ZipUnreadable('unsupported entry');
  if (e.method === 0) {
    if (data.length > e.size) throw new ZipTooLarge('undeclared');
    return Buffer.from(data);
  }
  let out: Buffer;
  try {
    out = inflateRawSync(data, { maxOutputLength: e.size + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipTooLarge('undeclared');
    throw new ZipUnreadable('damaged entry', { cause: err });
  }
  if (out.length > e.size) throw new ZipTooLarge('undeclared');
  return out;
}
