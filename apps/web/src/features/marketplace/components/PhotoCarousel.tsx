import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, type TouchEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';

interface PhotoCarouselProps {
  title: string;
  photos: string[];
  start?: number;
  onClose: () => void;
}

/** Full-size photos of a listing: arrow buttons, ←/→ keys and swipe; Escape closes. */
export function PhotoCarousel({ title, photos, start = 0, onClose }: PhotoCarouselProps) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(start);
  const touchX = useRef<number | null>(null);
  const count = photos.length;
  const go = (delta: number) => setIndex((i) => (i + delta + count) % count);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === 'ArrowRight') go(1);
  };
  const onTouchStart = (e: TouchEvent) => {
    touchX.current = e.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touchX.current;
    const end = e.changedTouches[0]?.clientX;
    touchX.current = null;
    if (start === null || end === undefined || Math.abs(end - start) < 40) return;
    go(end < start ? 1 : -1);
  };

  return (
    <Modal title={title} onClose={onClose} className="modal--carousel">
      <section
        className="carousel"
        onKeyDown={onKeyDown}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        aria-roledescription="carousel"
        aria-label={title}
      >
        <img
          className="carousel__img"
          src={photos[index]}
          alt={t('market.photoN', { n: index + 1, count, name: title })}
        />
        {count > 1 ? (
          <div className="carousel__controls">
            <button
              type="button"
              className="icon-button"
              onClick={() => go(-1)}
              aria-label={t('market.previousPhoto')}
              data-autofocus
            >
              <ChevronLeft size={22} aria-hidden="true" />
            </button>
            <span aria-live="polite">{t('market.photoCounter', { n: index + 1, count })}</span>
            <button
              type="button"
              className="icon-button"
              onClick={() => go(1)}
              aria-label={t('market.nextPhoto')}
            >
              <ChevronRight size={22} aria-hidden="true" />
            </button>
          </div>
        ) : null}
      </section>
    </Modal>
  );
}
