import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { demoCarPhoto } from '../src/demo/photos.js';
import { sniffImage } from '../src/files/images.js';

describe('demo vehicle photos (drawn locally, nothing downloaded)', () => {
  it('are 600×400 JPEGs like an upload, different per vehicle', async () => {
    const a = await demoCarPhoto(0, 'hatch');
    const b = await demoCarPhoto(4, 'estate');
    expect(sniffImage(a)).toBe('jpeg');
    expect(await sharp(a).metadata()).toMatchObject({ width: 600, height: 400, format: 'jpeg' });
    expect(a.equals(b)).toBe(false);
    expect(a.length).toBeLessThan(100_000);
  });
});
