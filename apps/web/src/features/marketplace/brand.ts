/**
 * The "brand emoji" of a listing card (spec §2). Flags would tell a make's origin but do not render
 * on Windows, so the emoji says the kind of brand instead: 🏎️ sports makes, ⚡ electric-only makes,
 * 🚙 off-road makes, 🚗 everything else.
 */
const KINDS: [string, readonly string[]][] = [
  ['🏎️', ['porsche', 'ferrari', 'lamborghini', 'maserati', 'mclaren', 'aston martin', 'bugatti', 'lotus']],
  ['⚡', ['tesla', 'polestar', 'byd', 'rivian', 'lucid']],
  ['🚙', ['jeep', 'land rover', 'range rover', 'hummer', 'lada', 'uaz']],
];

export function brandEmoji(make: string): string {
  const m = make.trim().toLowerCase();
  for (const [emoji, brands] of KINDS) if (brands.some((b) => m.startsWith(b))) return emoji;
  return '🚗';
}
