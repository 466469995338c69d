/**
 * The "brand emoji" of a listing card (spec §2): the flag of the make's home country, so a buyer
 * scanning the grid sees the origin at a glance; 🚗 for a make we do not know.
 */
const ORIGIN: Record<string, string> = {
  porsche: '🇩🇪',
  bmw: '🇩🇪',
  mercedes: '🇩🇪',
  audi: '🇩🇪',
  volkswagen: '🇩🇪',
  opel: '🇩🇪',
  dacia: '🇷🇴',
  renault: '🇫🇷',
  peugeot: '🇫🇷',
  citroen: '🇫🇷',
  fiat: '🇮🇹',
  alfa: '🇮🇹',
  ferrari: '🇮🇹',
  skoda: '🇨🇿',
  seat: '🇪🇸',
  cupra: '🇪🇸',
  volvo: '🇸🇪',
  toyota: '🇯🇵',
  honda: '🇯🇵',
  nissan: '🇯🇵',
  mazda: '🇯🇵',
  suzuki: '🇯🇵',
  subaru: '🇯🇵',
  hyundai: '🇰🇷',
  kia: '🇰🇷',
  ford: '🇺🇸',
  tesla: '🇺🇸',
  chevrolet: '🇺🇸',
  jeep: '🇺🇸',
  mini: '🇬🇧',
  jaguar: '🇬🇧',
  'land rover': '🇬🇧',
};

export function brandEmoji(make: string): string {
  const m = make.trim().toLowerCase();
  for (const [brand, emoji] of Object.entries(ORIGIN)) if (m.startsWith(brand)) return emoji;
  return '🚗';
}
