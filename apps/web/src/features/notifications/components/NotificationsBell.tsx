import { type Notification, notificationPath } from '@evdra/domain';
import { Bell, CheckCheck, Share2, ShieldCheck, Trash2, Wrench } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LoadMore } from '../../../components/LoadMore';
import {
  useClearNotifications,
  useMarkAllRead,
  useMarkRead,
  useNotificationCount,
  useNotifications,
} from '../api';
import '../notifications.css';

/** Where a reminder leads (shared with the pushed notification). */
export { notificationPath };

function formatTimestamp(iso: string, lng: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(lng, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/**
 * Nav bell (spec §2 "Notifications dropdown"): unread count badge, a dropdown list newest first,
 * Mark all as read and Clear notifications. Polls every 60 s and on focus while `enabled`
 * (logged in); failures are only logged (spec §8). Closes on Escape and outside click.
 */
export function NotificationsBell({ enabled }: { enabled: boolean }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const count = useNotificationCount(enabled);
  const list = useNotifications(enabled);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const clear = useClearNotifications();
  const lng = i18n.resolvedLanguage ?? i18n.language ?? 'en';

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent | TouchEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('touchstart', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('touchstart', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const unread = count.data?.count ?? 0;
  const badge = unread > 99 ? '99+' : String(unread);
  const items = (list.data?.pages.flatMap((p) => p.items) ?? []).sort((a, b) =>
    b.timestamp.localeCompare(a.timestamp),
  );

  const openItem = (n: Notification) => {
    if (!n.read) markRead.mutate(n.id);
    setOpen(false);
    const path = notificationPath(n);
    if (path) navigate(path);
  };

  const clearAll = () => {
    if (!window.confirm(t('notifications.confirmClear'))) return;
    clear.mutate(undefined);
  };

  return (
    <div className="popover-anchor notif" ref={wrapper}>
      <button
        ref={button}
        type="button"
        className="icon-button notif__bell"
        // The name holds the count the badge shows (WCAG 2.5.3, label in name): "Notifications, 3 unread".
        aria-label={unread > 0 ? t('notifications.bellUnread', { n: badge }) : t('nav.notifications')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <Bell size={20} aria-hidden="true" />
        {unread > 0 ? (
          <span className="notif__badge" aria-hidden="true" data-testid="notification-count">
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        <section id={panelId} className="popover notif__panel" aria-label={t('nav.notifications')}>
          <header className="notif__header">
            <h2 className="notif__title">{t('nav.notifications')}</h2>
            <div className="notif__actions">
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => markAll.mutate(undefined)}
                disabled={unread === 0 && !items.some((n) => !n.read)}
              >
                <CheckCheck size={16} aria-hidden="true" />
                {t('notifications.markAllRead')}
              </button>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={clearAll}
                disabled={items.length === 0}
              >
                <Trash2 size={16} aria-hidden="true" />
                {t('notifications.clear')}
              </button>
            </div>
          </header>
          {list.isPending && enabled ? <p className="notif__empty">{t('common.loading')}</p> : null}
          {!list.isPending && items.length === 0 ? (
            <p className="notif__empty">{t('nav.noNotifications')}</p>
          ) : null}
          {items.length > 0 ? (
            <ul className="notif__list" aria-label={t('notifications.list')}>
              {items.map((n) => {
                const Icon =
                  n.type === 'INSURANCE_REMINDER' || n.type === 'RENEWAL_REMINDER'
                    ? ShieldCheck
                    : n.type.startsWith('VEHICLE_')
                      ? Share2
                      : Wrench;
                return (
                  <li key={n.id}>
                    <button
                      type="button"
                      className={`notif__item${n.read ? '' : ' notif__item--unread'}`}
                      onClick={() => openItem(n)}
                    >
                      <Icon size={18} aria-hidden="true" className="notif__icon" />
                      <span className="notif__text">
                        <span className="notif__item-title">
                          {n.read ? null : (
                            <span className="visually-hidden">{t('notifications.unread')}: </span>
                          )}
                          {n.title}
                        </span>
                        <span className="notif__content">{n.content}</span>
                        <time className="notif__time" dateTime={n.timestamp}>
                          {formatTimestamp(n.timestamp, lng)}
                        </time>
                      </span>
                      {n.read ? null : <span className="notif__dot" aria-hidden="true" />}
                    </button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          <LoadMore list={list} />
        </section>
      ) : null}
    </div>
  );
}
