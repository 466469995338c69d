import { fitWithin, PHOTO_JPEG_QUALITY, PHOTO_MAX_HEIGHT, PHOTO_MAX_WIDTH } from '@evdra/domain';

interface LoadedImage {
  source: CanvasImageSource;
  width: number;
  height: number;
  close?: () => void;
}

async function loadImage(file: Blob): Promise<LoadedImage> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file);
    return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close?.() };
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    return { source: img, width: img.naturalWidth, height: img.naturalHeight };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The size a photo is drawn at before upload: within 600×400, proportions kept, never enlarged. */
export function photoTargetSize(width: number, height: number) {
  return fitWithin(width, height, PHOTO_MAX_WIDTH, PHOTO_MAX_HEIGHT);
}

/**
 * Downsizes an image in the browser to fit 600×400 keeping its proportions and re-encodes it as
 * JPEG at quality 0.8 (spec §5, §9).
 */
export async function downsizePhoto(file: Blob): Promise<Blob> {
  const image = await loadImage(file);
  try {
    const { width, height } = photoTargetSize(image.width, image.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas is not available');
    ctx.drawImage(image.source, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => {
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))),
        'image/jpeg',
        PHOTO_JPEG_QUALITY,
      );
    });
  } finally {
    image.close?.();
  }
}
