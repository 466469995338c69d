import type { Conversation } from '@evdra/domain';
import { ArrowLeft, Send, Trash2, Truck } from 'lucide-react';
import { type FormEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadMore } from '../../../components/LoadMore';
import { Modal } from '../../../components/Modal';
import { useChat, useConversations, useDeleteConversation, useSendMessage, useTransfer } from '../api';

interface ConversationsOverlayProps {
  onClose: () => void;
  /** Open this conversation right away (after 'I'm Interested'). */
  initialId?: number | null;
}

/**
 * The conversations overlay, on the shared native-<dialog> Modal (page behind inert, Escape closes,
 * focus returns): the list (counterparty, vehicle, last message, role) and the open chat. Below
 * 640 px it fills the screen and shows one pane at a time; wider, both side by side.
 */
export function ConversationsOverlay({ onClose, initialId = null }: ConversationsOverlayProps) {
  const { t } = useTranslation();
  const list = useConversations(true);
  const conversations = list.data?.pages.flatMap((p) => p.items);
  const [openId, setOpenId] = useState<number | null>(initialId);
  const open = conversations?.find((c) => c.interestId === openId) ?? null;

  return (
    <Modal
      title={t('market.conversations')}
      onClose={onClose}
      className={`conversations${open ? ' conversations--open' : ''}`}
    >
      <div className="conversations__panes">
        <div className="conversations__list">
          {conversations && conversations.length === 0 ? (
            <div className="empty-state">
              <p className="muted">{t('market.noConversations')}</p>
              <p className="muted">{t('market.noConversationsHint')}</p>
            </div>
          ) : null}
          {!list.data && list.isFetching ? <p className="muted">{t('common.loading')}</p> : null}
          <ul>
            {(conversations ?? []).map((c) => (
              <li key={c.interestId}>
                <button
                  type="button"
                  className={`conversation-item${c.interestId === openId ? ' conversation-item--active' : ''}`}
                  onClick={() => setOpenId(c.interestId)}
                >
                  <span className="conversation-item__top">
                    <strong>{c.counterparty}</strong>
                    <span className={`role-badge role-badge--${c.role}`}>{t(`market.role.${c.role}`)}</span>
                    {c.unread > 0 ? (
                      <span className="badge">
                        <span aria-hidden="true">{c.unread}</span>
                        <span className="visually-hidden">{t('market.unread', { count: c.unread })}</span>
                      </span>
                    ) : null}
                  </span>
                  <span className="conversation-item__vehicle">
                    {c.vehicle.make} {c.vehicle.model} ({c.vehicle.year})
                  </span>
                  <span className="conversation-item__last muted">{c.message || t('market.noMessages')}</span>
                </button>
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </div>
        {open ? (
          <ChatPane key={open.interestId} conversation={open} onBack={() => setOpenId(null)} />
        ) : (
          <div className="conversations__empty muted">{t('market.pickConversation')}</div>
        )}
      </div>
    </Modal>
  );
}

function ChatPane({ conversation: c, onBack }: { conversation: Conversation; onBack: () => void }) {
  const { t } = useTranslation();
  const chat = useChat(c.interestId);
  const send = useSendMessage(c.interestId);
  const transfer = useTransfer();
  const remove = useDeleteConversation();
  const [text, setText] = useState('');
  const inputId = useId();
  const end = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const messages = chat.messages;
  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;
  // What the last render showed: its first and last message and the messages' scroll height.
  const shown = useRef<{ first?: number; last?: number; height: number }>({ height: 0 });

  // A newer message (sent, polled, or the chat just opened) scrolls to the end; earlier ones put on
  // top keep the messages in view where they were (the box grew above them by its height's change).
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const before = shown.current;
    if (lastId !== before.last) end.current?.scrollIntoView?.({ block: 'end' });
    else if (firstId !== before.first) el.scrollTop += el.scrollHeight - before.height;
    shown.current = { first: firstId, last: lastId, height: el.scrollHeight };
  });

  // Scrolled to the top: the earlier page comes as the button would bring it.
  const onScroll = () => {
    if ((box.current?.scrollTop ?? 1) <= 0 && chat.hasNextPage && !chat.isFetchingNextPage)
      void chat.fetchNextPage();
  };

  const onSend = async (e: FormEvent) => {
    e.preventDefault();
    const message = text.trim();
    if (!message || send.isPending) return; // blank messages are not sent (spec §5)
    try {
      await send.mutateAsync(message);
      setText('');
    } catch {
      // Marketplace failures are only logged (spec §8); the typed text stays.
    }
  };

  const onTransfer = async () => {
    if (!window.confirm(t('market.confirmTransfer'))) return;
    try {
      await transfer.mutateAsync(c.interestId);
      await chat.refetch();
    } catch {
      // only logged (spec §8)
    }
  };

  const onDelete = async () => {
    if (!window.confirm(t('market.confirmDeleteConversation'))) return;
    try {
      await remove.mutateAsync(c.interestId);
      onBack();
    } catch {
      // only logged (spec §8)
    }
  };

  return (
    <section className="chat" aria-label={t('market.chatWith', { name: c.counterparty })}>
      <header className="chat__header">
        <button
          type="button"
          className="icon-button chat__back"
          onClick={onBack}
          aria-label={t('common.back')}
        >
          <ArrowLeft size={20} aria-hidden="true" />
        </button>
        <div>
          <p className="chat__title">
            <strong>{c.counterparty}</strong> · {c.vehicle.make} {c.vehicle.model} ({c.vehicle.year})
          </p>
          <p className="muted chat__role">{t('market.youAre', { role: t(`market.role.${c.role}`) })}</p>
        </div>
      </header>
      <div className="chat__messages" aria-live="polite" ref={box} onScroll={onScroll}>
        <LoadMore list={chat} label={t('forms.loadEarlier')} />
        {chat.isSuccess && messages.length === 0 ? <p className="muted">{t('market.noMessages')}</p> : null}
        {messages.map((m) => (
          <div key={m.id} className={`bubble${m.mine ? ' bubble--mine' : ''}`}>
            <span className="bubble__sender">{m.sender}</span>
            <span>{m.content}</span>
          </div>
        ))}
        <div ref={end} />
      </div>
      <form className="chat__form" onSubmit={onSend}>
        <label htmlFor={inputId} className="visually-hidden">
          {t('market.message')}
        </label>
        <input
          id={inputId}
          className="input"
          value={text}
          maxLength={2000}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('market.typeMessage')}
          autoComplete="off"
        />
        <button type="submit" className="btn btn--primary" disabled={send.isPending || !text.trim()}>
          <Send size={16} aria-hidden="true" />
          {t('market.send')}
        </button>
      </form>
      <div className="chat__actions">
        {c.role === 'seller' && c.listingActive ? (
          <button
            type="button"
            className="btn btn--secondary btn--small"
            onClick={() => void onTransfer()}
            disabled={transfer.isPending}
          >
            <Truck size={16} aria-hidden="true" />
            {t('market.transfer')}
          </button>
        ) : null}
        <button type="button" className="btn btn--danger btn--small" onClick={() => void onDelete()}>
          <Trash2 size={16} aria-hidden="true" />
          {t('market.deleteChat')}
        </button>
      </div>
    </section>
  );
}
