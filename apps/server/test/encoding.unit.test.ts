import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, COMPRESS_ON_LOOP_BYTES, encode } from '../src/lib/encoding.js';

describe('acceptedEncoding', () => {
  it('prefers Brotli, then gzip, as browsers and HTTP libraries ask', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br'); // Chromium
    expect(acceptedEncoding('gzip, deflate')).toBe('gzip'); // curl --compressed, Python requests
    expect(acceptedEncoding('GZIP')).toBe('gzip');
  });

  it('answers as it is when nothing (or nothing it has) is accepted', () => {
    expect(acceptedEncoding(undefined)).toBe('identity');
    expect(acceptedEncoding('')).toBe('identity');
    expect(acceptedEncoding('identity')).toBe('identity');
    expect(acceptedEncoding('deflate, zstd')).toBe('identity');
  });

  it('follows the q ratings: a higher one wins, q=0 refuses, * covers the unlisted', () => {
    expect(acceptedEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(acceptedEncoding('br;q=0, gzip')).toBe('gzip');
    expect(acceptedEncoding('br; q=0, gzip;q=0')).toBe('identity');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(acceptedEncoding('*;q=0')).toBe('identity');
    expect(acceptedEncoding('br;q=nonsense, gzip')).toBe('gzip');
  });
});

describe('encode', () => {
  // A list of fill-ups as JSON, `bytes` long: on the event loop up to the limit, in zlib's pool above it.
  const json = (bytes: number) => {
    const row = '{"liters":41.27,"fuelPrice":7.61,"odometer":76320},';
    return Buffer.from(`[${row.repeat(Math.ceil(bytes / row.length))}]`.slice(0, bytes));
  };

  it.each([
    ['a notification list', 5_000],
    ['an answer at the limit', COMPRESS_ON_LOOP_BYTES],
    ['a page over it', COMPRESS_ON_LOOP_BYTES + 1],
    ['a fleet page', 345_000],
  ])('gives back %s byte for byte, smaller, in Brotli and gzip', async (_name, bytes) => {
    const body = json(bytes);
    const [br, gz, best] = await Promise.all([
      encode(body, 'br'),
      encode(body, 'gzip'),
      encode(body, 'br', true),
    ]);
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
    expect(gunzipSync(gz).equals(body)).toBe(true);
    expect(brotliDecompressSync(best).equals(body)).toBe(true);
    expect(br.length).toBeLessThan(body.length / 10);
  });
});
