import { X } from 'lucide-react';
import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Extra class on the dialog (`modal--drawer`, `modal--side`). */
  className?: string;
}

/**
 * A modal dialog (≤ 500 px wide) on the native `<dialog>` opened with `showModal()`: the browser
 * makes the page behind it inert and keeps focus inside. Escape and a click on the backdrop call
 * `onClose`; the parent unmounts the modal, and focus goes back to what had it before.
 * The first control with `data-autofocus` gets focus.
 */
export function Modal({ title, onClose, children, className }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    if (!dialog.open) dialog.showModal();
    const autofocus = dialog.querySelector<HTMLElement>('[data-autofocus]');
    if (autofocus) autofocus.focus();
    else if (!dialog.contains(document.activeElement)) dialog.focus();
    return () => {
      if (dialog.open) dialog.close();
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
    if (e.key !== 'Escape') return;
    // The parent decides: it unmounts the dialog (the browser's own close would desync React).
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };

  // The panel fills the dialog, so a click whose target is the dialog itself hit the backdrop.
  const onClick = (e: MouseEvent<HTMLDialogElement>) => {
    if (e.target === e.currentTarget) onClose();
  };

  return createPortal(
    <dialog
      ref={ref}
      className={`modal${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
      tabIndex={-1}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <div className="modal__panel">
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <div className="modal__body">{children}</div>
      </div>
    </dialog>,
    document.body,
  );
}
