import { CHAT_MIN_REPLY_CHARS, CHAT_PROMPT_MAX, type ChatMessage, ChatPrompt } from '@evdra/domain';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Bot, Send, Trash2, User } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert, PageCard } from '../../../components/Card';
import { Markdown } from '../../../components/Markdown';
import { useAiStatus } from '../../../lib/ai-status';
import { ApiError, errorText } from '../../../lib/api';
import { chatKeys, useChatHistory, useClearChat, useSendPrompt } from '../api';
import '../../../components/ai.css';
import '../ai.css';

type PromptForm = { prompt: string };
const SUGGESTIONS = ['service', 'fuel', 'insurance', 'light'] as const;

/** Spec §8: an empty reply, a single dot or one under 5 characters is "not clear". */
export function isUnclear(reply: string | undefined): boolean {
  const text = (reply ?? '').trim();
  return text === '' || text === '.' || text.length < CHAT_MIN_REPLY_CHARS;
}

/**
 * The virtual mechanic (spec §2 Chat): history, a question box that is disabled while the answer
 * comes, a typing indicator, clear history with a confirmation, and the §8 rules for unclear
 * replies and an unreachable server.
 */
export default function ChatPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const history = useChatHistory();
  const status = useAiStatus();
  const send = useSendPrompt();
  const clear = useClearChat();
  const [messages, setMessages] = useState<ChatMessage[] | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const endRef = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    setFocus,
    watch,
    formState: { errors },
  } = useForm<PromptForm>({ resolver: zodResolver(ChatPrompt), defaultValues: { prompt: '' } });

  const shown = messages ?? history.data ?? [];
  const waiting = send.isPending;
  const typed = watch('prompt') ?? '';
  const tooLong = errors.prompt?.type === 'too_big';

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when the conversation grows
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [shown.length, waiting]);

  const ask = async (prompt: string) => {
    const text = prompt.trim();
    if (!text || waiting) return;
    setActionError(null);
    const before = shown;
    setMessages([...before, { role: 'user', content: text }]);
    reset({ prompt: '' });
    try {
      const { response } = await send.mutateAsync(text);
      const content = isUnclear(response) ? t('ai.chat.notClear') : response;
      setMessages((m) => [...(m ?? []), { role: 'ai', content }]);
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        // Refused (too long, too many questions): the question goes back into the box.
        setMessages(before);
        setValue('prompt', text);
        setError('prompt', { type: 'server', message: errorText(err) });
      } else {
        setMessages((m) => [...(m ?? []), { role: 'ai', content: t('ai.chat.serverDown') }]);
      }
    } finally {
      void queryClient.invalidateQueries({ queryKey: chatKeys.history });
      setTimeout(() => setFocus('prompt'), 0);
    }
  };

  const onClear = () => {
    if (!window.confirm(t('ai.chat.confirmClear'))) return;
    setActionError(null);
    clear.mutate(undefined, {
      onSuccess: () => setMessages([]),
      onError: (err) => setActionError(t('ai.chat.clearFailed', { message: errorText(err) })),
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void handleSubmit((v) => ask(v.prompt))();
    }
  };

  const fieldError = tooLong
    ? t('ai.chat.tooLong', { max: CHAT_PROMPT_MAX, count: typed.length })
    : errors.prompt?.type === 'server'
      ? errors.prompt.message
      : undefined;

  return (
    <PageCard
      title={t('ai.chat.title')}
      actions={
        <button
          type="button"
          className="btn btn--danger btn--small"
          onClick={onClear}
          disabled={shown.length === 0 || clear.isPending || waiting}
        >
          <Trash2 size={16} aria-hidden="true" />
          {t('ai.chat.clear')}
        </button>
      }
    >
      <p className="muted chat__subtitle">
        {t('ai.chat.subtitle')}
        {status.data ? (
          <>
            {' '}
            {status.data.provider === 'llm'
              ? t('ai.chat.providerLlm', { model: status.data.model ?? '' })
              : t('ai.chat.providerBuiltin')}
          </>
        ) : null}
      </p>
      {history.isPending ? (
        <div className="loading-bar" role="progressbar" aria-label={t('common.loading')} />
      ) : null}
      {history.isError ? (
        <Alert tone="error">{t('ai.chat.historyError', { message: errorText(history.error) })}</Alert>
      ) : null}
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}

      <div className="chat">
        <ol className="chat__messages" aria-label={t('ai.chat.messages')} aria-live="polite">
          {shown.map((m, i) => (
            // Messages have no ids; the list only grows or empties, so the index is stable.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i} className={`chat-msg chat-msg--${m.role}`}>
              <span className="chat-msg__avatar" aria-hidden="true">
                {m.role === 'ai' ? <Bot size={18} /> : <User size={18} />}
              </span>
              <div className="chat-msg__bubble">
                <span className="visually-hidden">
                  {m.role === 'ai' ? t('ai.chat.assistant') : t('ai.chat.you')}:{' '}
                </span>
                {m.role === 'ai' ? (
                  <Markdown text={m.content} />
                ) : (
                  <p className="chat-msg__text">{m.content}</p>
                )}
              </div>
            </li>
          ))}
          {waiting ? (
            <li className="chat-msg chat-msg--ai chat-msg--typing">
              <span className="chat-msg__avatar" aria-hidden="true">
                <Bot size={18} />
              </span>
              <div className="chat-msg__bubble" role="status">
                <span className="typing-dots" aria-hidden="true">
                  <span />
                  <span />
                  <span />
                </span>
                <span className="visually-hidden">{t('ai.chat.typing')}</span>
              </div>
            </li>
          ) : null}
        </ol>
        {!history.isPending && shown.length === 0 && !waiting ? (
          <div className="chat__empty">
            <p className="muted">{t('ai.chat.empty')}</p>
            <ul className="chat__suggestions">
              {SUGGESTIONS.map((key) => (
                <li key={key}>
                  <button
                    type="button"
                    className="chat__suggestion"
                    onClick={() => void ask(t(`ai.chat.suggestions.${key}`))}
                  >
                    {t(`ai.chat.suggestions.${key}`)}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div ref={endRef} />

        <form className="chat__form" onSubmit={handleSubmit((v) => ask(v.prompt))} noValidate>
          <div className="field chat__field">
            <label className="visually-hidden" htmlFor={inputId}>
              {t('ai.chat.inputLabel')}
            </label>
            <textarea
              id={inputId}
              className="input chat__input"
              rows={2}
              placeholder={t('ai.chat.placeholder')}
              disabled={waiting}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? errorId : undefined}
              onKeyDown={onKeyDown}
              {...register('prompt')}
            />
            {fieldError ? (
              <p className="field__error" id={errorId} role="alert">
                {fieldError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn--primary" disabled={waiting || typed.trim() === ''}>
            <Send size={18} aria-hidden="true" />
            {t('ai.chat.send')}
          </button>
        </form>
      </div>
    </PageCard>
  );
}
