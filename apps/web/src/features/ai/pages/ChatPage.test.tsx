import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import ChatPage, { isUnclear } from './ChatPage';

const SERVER_DOWN = 'Ne pare rău, serverul AI nu a putut fi contactat. Încearcă din nou mai târziu.';

function renderChat(routes: Parameters<typeof mockApi>[0] = {}) {
  storeUser();
  const fetchMock = mockApi({
    'GET /api/chat/history': () => jsonResponse([]),
    'GET /api/ai/status': () =>
      jsonResponse({ provider: 'builtin', model: null, languages: ['en', 'ro', 'es'] }),
    ...routes,
  });
  return { fetchMock, ...renderPage(<ChatPage />, { path: '/ai-chat', route: '/ai-chat' }) };
}

/** A POST /api/chat handler that answers `reply` once the test calls release(). */
function heldReply(reply: () => Response) {
  const held = { release: () => {} };
  const handler = async () => {
    await new Promise<void>((resolve) => {
      held.release = resolve;
    });
    return reply();
  };
  return { held, handler };
}

const conversation = () => screen.getByRole('list', { name: 'Conversation' });

afterEach(() => vi.restoreAllMocks());

describe('ChatPage', () => {
  it('shows the history oldest first, AI answers with lists and bold, never as HTML', async () => {
    renderChat({
      'GET /api/chat/history': () =>
        jsonResponse([
          { role: 'user', content: 'When is my next service? <b>now</b>' },
          {
            role: 'ai',
            content:
              '**Dacia Logan**: next service by June 1, 2027.\n- check oil\n- check <script>x</script>',
          },
        ]),
    });
    await screen.findByText('When is my next service? <b>now</b>');
    const items = within(conversation()).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('You: When is my next service?');
    expect(items[1]).toHaveTextContent('Virtual mechanic: Dacia Logan: next service by June 1, 2027.');
    expect(within(items[1] as HTMLElement).getByText('Dacia Logan').tagName).toBe('STRONG');
    expect(within(items[1] as HTMLElement).getByText('check <script>x</script>').tagName).toBe('LI');
    expect(document.querySelector('.chat b, .chat script')).toBeNull();
    expect(screen.getByText(/Built-in mechanic/)).toBeInTheDocument();
  });

  it('sends a question: the input is disabled and a typing indicator shows until the reply', async () => {
    const { held, handler } = heldReply(() =>
      jsonResponse({ response: 'Check the **tyre pressures** monthly.' }),
    );
    const { user, fetchMock } = renderChat({ 'POST /api/chat': handler });
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.click(input);
    await user.paste('How often should I check my tyres?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('The mechanic is typing…')).toBeInTheDocument();
    expect(input).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(within(conversation()).getByText('How often should I check my tyres?')).toBeInTheDocument();
    held.release();
    expect(await screen.findByText('tyre pressures')).toBeInTheDocument();
    expect(screen.queryByText('The mechanic is typing…')).not.toBeInTheDocument();
    expect(input).toBeEnabled();
    expect(input).toHaveValue('');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ prompt: 'How often should I check my tyres?' });
  });

  it.each(['', '.', 'ok'])("shows 'Sorry the answer is not clear' for the reply %j", async (reply) => {
    const { user } = renderChat({ 'POST /api/chat': () => jsonResponse({ response: reply }) });
    await user.type(await screen.findByRole('textbox', { name: 'Your question' }), 'hello there{Enter}');
    expect(await screen.findByText('Sorry the answer is not clear, please try again')).toBeInTheDocument();
  });

  it('adds the Romanian AI message when the server cannot be reached or fails', async () => {
    let calls = 0;
    const { user } = renderChat({
      'POST /api/chat': () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return jsonResponse({ code: 'INTERNAL', message: 'Something went wrong.' }, 500);
      },
    });
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.type(input, 'first{Enter}');
    expect(await screen.findByText(SERVER_DOWN)).toBeInTheDocument();
    await user.type(input, 'second{Enter}');
    await waitFor(() => expect(screen.getAllByText(SERVER_DOWN)).toHaveLength(2));
  });

  it('never sends a blank question', async () => {
    const { user, fetchMock } = renderChat();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(input, '   {Enter}');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('keeps the question and shows the reason next to the field when refused (429)', async () => {
    const { user } = renderChat({
      'POST /api/chat': () =>
        jsonResponse({ code: 'RATE_LIMITED', message: 'At most 20 questions a minute.' }, 429),
    });
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.type(input, 'one more{Enter}');
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(input).toHaveValue('one more');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(screen.getByRole('alert').textContent ?? '');
    expect(within(conversation()).queryByText('one more')).not.toBeInTheDocument();
  });

  it('refuses a question over 2,000 characters next to the field', async () => {
    const { user, fetchMock } = renderChat();
    const input = await screen.findByRole('textbox', { name: 'Your question' });
    await user.click(input);
    await user.paste('x'.repeat(2001));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('At most 2000 characters (2001 now).')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('clears the whole history only after the confirmation', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const { user, fetchMock } = renderChat({
      'GET /api/chat/history': () =>
        jsonResponse([
          { role: 'user', content: 'hello' },
          { role: 'ai', content: 'Hello! I am here.' },
        ]),
      'DELETE /api/chat/history': () => new Response(null, { status: 204 }),
    });
    await screen.findByText('Hello! I am here.');
    const clear = screen.getByRole('button', { name: 'Clear history' });
    await user.click(clear);
    expect(confirm).toHaveBeenCalledWith('Delete the whole chat history?');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(clear);
    await waitFor(() => expect(screen.queryByText('Hello! I am here.')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
    expect(screen.getByText('No messages yet. Try one of these:')).toBeInTheDocument();
  });

  it('treats empty, a dot and under 5 characters as unclear', () => {
    expect([undefined, '', ' . ', '.', 'abcd'].map(isUnclear)).toEqual([true, true, true, true, true]);
    expect(isUnclear('Hello')).toBe(false);
  });
});
