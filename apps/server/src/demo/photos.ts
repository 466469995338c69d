import { PHOTO_JPEG_QUALITY, PHOTO_MAX_HEIGHT, PHOTO_MAX_WIDTH } from '@evdra/domain';
import sharp, { type Sharp } from 'sharp';

/** Body colours a real car park has (silver, white, black, blue, red, grey, green). */
const PAINTS = ['#b8bec6', '#f2f2ef', '#24272c', '#1f4e8c', '#a3222b', '#5b6168', '#2f5d46'];
/** Evening, overcast, noon and dusk skies. */
const SKIES = [
  ['#f6c98a', '#fbe7c9'],
  ['#aebccb', '#dfe6ee'],
  ['#7fb2e5', '#d6e9f8'],
  ['#5c6f9a', '#c9a7a0'],
];

/**
 * A demo vehicle's photo, drawn here (nothing is downloaded): a side view of a car in its paint
 * colour in front of a sky and a road, rendered by sharp from SVG to a 600×400 JPEG like an upload.
 * `n` picks the paint and sky; `shape` the body (hatchback, saloon, estate).
 */
export type BodyShape = 'hatch' | 'saloon' | 'estate';
export const SHAPES: readonly BodyShape[] = ['hatch', 'saloon', 'estate'];

export async function demoCarPhoto(n: number, shape: BodyShape): Promise<Buffer> {
  const paint = PAINTS[n % PAINTS.length] as string;
  const [skyTop, skyBottom] = SKIES[n % SKIES.length] as [string, string];
  const roof = {
    hatch: 'M150 205 L215 140 L370 138 L440 200',
    saloon: 'M150 205 L225 142 L355 140 L420 190 L470 200',
    estate: 'M150 205 L215 140 L440 138 L462 200',
  }[shape];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PHOTO_MAX_WIDTH}" height="${PHOTO_MAX_HEIGHT}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>
    <linearGradient id="body" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0.35"/><stop offset="0.45" stop-color="#ffffff" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity="0.25"/></linearGradient>
    <radialGradient id="rim"><stop offset="0" stop-color="#e9ecef"/><stop offset="1" stop-color="#8a9199"/></radialGradient>
  </defs>
  <rect width="600" height="400" fill="url(#sky)"/>
  <path d="M0 250 Q150 225 300 240 T600 235 L600 290 L0 290 Z" fill="#6d8a5e" opacity="0.55"/>
  <rect y="285" width="600" height="115" fill="#4a4d52"/>
  <rect y="338" width="600" height="6" fill="#d9d6c8" opacity="0.7"/>
  <ellipse cx="300" cy="300" rx="215" ry="14" fill="#000" opacity="0.35"/>
  <path d="${roof} L500 210 Q520 215 522 240 L522 268 Q520 282 505 282 L95 282 Q80 282 80 268 L80 238 Q82 212 150 205 Z" fill="${paint}" stroke="#1b1d20" stroke-width="2"/>
  <path d="${roof} L500 210 Q520 215 522 240 L522 268 Q520 282 505 282 L95 282 Q80 282 80 268 L80 238 Q82 212 150 205 Z" fill="url(#body)"/>
  <path d="M178 203 L225 152 L290 151 L290 203 Z" fill="#2b3440" opacity="0.85"/>
  <path d="M302 203 L302 151 L${shape === 'estate' ? 425 : 360} 150 L${shape === 'estate' ? 440 : 410} 203 Z" fill="#2b3440" opacity="0.85"/>
  <line x1="296" y1="205" x2="296" y2="278" stroke="#1b1d20" stroke-width="2" opacity="0.6"/>
  <rect x="255" y="222" width="22" height="5" rx="2" fill="#1b1d20" opacity="0.6"/>
  <rect x="345" y="222" width="22" height="5" rx="2" fill="#1b1d20" opacity="0.6"/>
  <rect x="503" y="222" width="16" height="12" rx="3" fill="#ffe9a8"/>
  <rect x="82" y="224" width="12" height="12" rx="3" fill="#c0392b"/>
  ${[165, 430]
    .map(
      (x) =>
        `<circle cx="${x}" cy="282" r="38" fill="#1b1d20"/><circle cx="${x}" cy="282" r="22" fill="url(#rim)"/><circle cx="${x}" cy="282" r="6" fill="#5b6168"/>`,
    )
    .join('')}
</svg>`;
  return sharp(Buffer.from(svg))
    .jpeg({ quality: Math.round(PHOTO_JPEG_QUALITY * 100), mozjpeg: true })
    .toBuffer();
}

/**
 * A listing's photos of demo car `n` (the same paint as its vehicle photo): the side view, the
 * other side under another sky, a close-up of the front wheel, and the car at dusk.
 */
export async function listingPhotos(n: number, count: number): Promise<Buffer[]> {
  const shape = SHAPES[n % SHAPES.length] as BodyShape;
  const samePaint = (k: number) => n + PAINTS.length * k; // same paint, the next sky
  const jpeg = (img: Sharp) =>
    img.jpeg({ quality: Math.round(PHOTO_JPEG_QUALITY * 100), mozjpeg: true }).toBuffer();
  const views = [
    () => demoCarPhoto(n, shape),
    async () => jpeg(sharp(await demoCarPhoto(samePaint(1), shape)).flop()),
    async () =>
      jpeg(
        sharp(await demoCarPhoto(samePaint(2), shape))
          .extract({ left: 330, top: 180, width: 240, height: 160 })
          .resize(PHOTO_MAX_WIDTH, PHOTO_MAX_HEIGHT),
      ),
    () => demoCarPhoto(samePaint(3), shape),
  ];
  return Promise.all(views.slice(0, count).map((view) => view()));
}
