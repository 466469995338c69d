import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
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
