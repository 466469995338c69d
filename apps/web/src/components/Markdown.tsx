import type { ReactNode } from 'react';

/** `**bold**` spans of one line as text and <strong> elements (never HTML). */
function inline(text: string, keyPrefix: string): ReactNode[] {
  const parts: ReactNode[] = [];
  const re = /\*\*(.+?)\*\*/g;
  let last = 0;
  let i = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) parts.push(text.slice(last, m.index));
    parts.push(<strong key={`${keyPrefix}-${i++}`}>{m[1]}</strong>);
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

type Block = { kind: 'p'; lines: string[] } | { kind: 'ul' | 'ol'; items: string[] };

/**
 * Markdown-light for AI answers: paragraphs, "- " / "* " and "1. " lists, and **bold**. Everything
 * else is shown as plain text through React, so an answer can never inject HTML.
 */
export function Markdown({ text }: { text: string }) {
  const blocks: Block[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const bullet = /^[-*•]\s+(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s+(.*)$/.exec(line);
    const prev = blocks.at(-1);
    if (!line) {
      blocks.push({ kind: 'p', lines: [] });
    } else if (bullet || numbered) {
      const kind = bullet ? 'ul' : 'ol';
      const item = (bullet ?? numbered)?.[1] ?? '';
      if (prev && prev.kind === kind) prev.items.push(item);
      else blocks.push({ kind, items: [item] });
    } else if (prev && prev.kind === 'p' && prev.lines.length > 0) {
      prev.lines.push(line);
    } else {
      blocks.push({ kind: 'p', lines: [line] });
    }
  }
  return (
    <div className="markdown">
      {blocks.map((b, i) => {
        const key = `b${i}`;
        if (b.kind === 'p') {
          if (b.lines.length === 0) return null;
          return (
            <p key={key}>
              {b.lines.flatMap((l, j) => [
                // The text is fixed for a rendered message: positions are stable keys.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                ...(j > 0 ? [<br key={`${key}-br${j}`} />] : []),
                ...inline(l, `${key}-${j}`),
              ])}
            </p>
          );
        }
        const items = b.items.map((item, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: positions in a fixed text are stable keys
          <li key={`${key}-${j}`}>{inline(item, `${key}-${j}`)}</li>
        ));
        return b.kind === 'ul' ? <ul key={key}>{items}</ul> : <ol key={key}>{items}</ol>;
      })}
    </div>
  );
}
