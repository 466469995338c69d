import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockApi, renderPage, storeUser } from '../../../test/utils';
import { ApiTokensSettings, WebhooksSettings } from './IntegrationsSettings';

const TOKEN = {
  id: 7,
  name: 'Home Assistant',
  scope: 'read',
  hint: 'evd_AbCd',
  expiresAt: null,
  lastUsedAt: '2026-03-01T10:00:00.000Z',
  lastUsedIp: '203.0.113.9',
  createdAt: '2026-02-01T10:00:00.000Z',
};

// Settings → API tokens and Webhooks (issue 53). The machine is shared: allow slow renders.
describe('ApiTokensSettings', { timeout: 20_000 }, () => {
  it('lists tokens with their last use, shows a new token once, and revokes after confirming', async () => {
    storeUser();
    let tokens = [TOKEN];
    const fetchMock = mockApi({
      'GET /api/tokens': () => jsonResponse(tokens),
      'POST /api/tokens': (_u, init) => {
        const body = JSON.parse(String(init.body));
        return jsonResponse(
          { id: 8, name: body.name, scope: body.scope, expiresAt: null, token: 'evd_secret123' },
          201,
        );
      },
      'DELETE /api/tokens/7': () => {
        tokens = [];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderPage(<ApiTokensSettings />);
    const list = await screen.findByRole('list', { name: 'Your API tokens' });
    expect(within(list).getByText('Home Assistant')).toBeInTheDocument();
    expect(within(list).getByText(/Last used .* from 203\.0\.113\.9/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Name'), 'n8n');
    await user.selectOptions(screen.getByLabelText('Scope'), 'read-write');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByDisplayValue('evd_secret123')).toBeInTheDocument();
    expect(screen.getByText('Copy it now: it is not shown again.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: 'n8n',
      scope: 'read-write',
      expiresAt: null,
    });

    vi.spyOn(window, 'confirm').mockReturnValue(true);
    await user.click(within(list).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('No API tokens yet.')).toBeInTheDocument();
  });

  it('says so when the server turned API tokens off (404)', async () => {
    storeUser();
    mockApi({});
    renderPage(<ApiTokensSettings />);
    expect(await screen.findByText('API tokens are turned off on this server.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create token' })).toBeNull();
  });
});

describe('WebhooksSettings', { timeout: 20_000 }, () => {
  it('adds a webhook (secret shown once), lists its deliveries and re-sends one', async () => {
    storeUser();
    const hook = {
      id: 3,
      url: 'https://hooks.example.com/evdra',
      events: ['record.created', 'reminder.due'],
      kinds: null,
      pausedAt: null,
      failingSince: null,
      createdAt: '2026-02-01T10:00:00.000Z',
    };
    let hooks: (typeof hook)[] = [];
    const fetchMock = mockApi({
      'GET /api/webhooks': () => jsonResponse(hooks),
      'POST /api/webhooks': (_u, init) => {
        hooks = [{ ...hook, ...JSON.parse(String(init.body)) }];
        return jsonResponse({ ...hooks[0], secret: 'whsec_abc' }, 201);
      },
      'GET /api/webhooks/3/deliveries': () =>
        jsonResponse([
          {
            id: 11,
            eventId: 'e1',
            event: 'record.created',
            status: 'failed',
            attempts: 14,
            responseStatus: 500,
            error: 'HTTP 500',
            nextAttemptAt: null,
            deliveredAt: null,
            createdAt: '2026-02-02T10:00:00.000Z',
          },
        ]),
      'POST /api/webhooks/3/deliveries/11/resend': () => jsonResponse({}, 202),
    });
    const { user } = renderPage(<WebhooksSettings />);
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('URL'), hook.url);
    await user.click(screen.getByRole('checkbox', { name: 'Reminder due' }));
    // record.created is ticked: its kinds are offered, all of them at first.
    await user.click(screen.getByRole('checkbox', { name: 'Expenses' }));
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByDisplayValue('whsec_abc')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([u, init]) => init?.method === 'POST' && String(u).endsWith('/webhooks'),
    );
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      url: hook.url,
      events: ['record.created', 'reminder.due'],
      kinds: ['fuel', 'insurance', 'revision', 'renewal'],
    });

    const list = await screen.findByRole('list', { name: 'Your webhooks' });
    await user.click(within(list).getByRole('button', { name: 'Deliveries' }));
    const sent = await screen.findByRole('list', { name: 'Deliveries' });
    expect(within(sent).getByText(/Failed \(HTTP 500\)/)).toBeInTheDocument();
    expect(within(sent).getByText(/14 attempts/)).toBeInTheDocument();
    await user.click(within(sent).getByRole('button', { name: 'Resend' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).endsWith('/deliveries/11/resend'))).toBe(true),
    );
  });

  it('edits a webhook in place: a refused URL is shown next to its field with nothing typed lost, then saved and paused', async () => {
    storeUser();
    let hook = {
      id: 4,
      url: 'https://hooks.example.com/old',
      events: ['record.created'],
      kinds: null as string[] | null,
      pausedAt: null as string | null,
      failingSince: null,
      createdAt: '2026-02-01T10:00:00.000Z',
    };
    const puts: Record<string, unknown>[] = [];
    mockApi({
      'GET /api/webhooks': () => jsonResponse([hook]),
      'PUT /api/webhooks/4': (_u, init) => {
        const body = JSON.parse(String(init.body));
        puts.push(body);
        if (body.url.includes('192.168.'))
          return jsonResponse(
            {
              code: 'VALIDATION_FAILED',
              message: 'Validation failed',
              details: [
                {
                  field: 'url',
                  message:
                    'The URL must be on the public internet, not a private, local or reserved address.',
                },
              ],
            },
            400,
          );
        hook = { ...hook, ...body, pausedAt: body.paused ? '2026-03-01T10:00:00.000Z' : null };
        return jsonResponse(hook);
      },
    });
    const { user } = renderPage(<WebhooksSettings />);
    const list = await screen.findByRole('list', { name: 'Your webhooks' });
    await user.click(within(list).getByRole('button', { name: 'Edit' }));
    const form = within(list).getByRole('form', { name: 'Edit webhook https://hooks.example.com/old' });
    const url = within(form).getByLabelText('URL');
    expect(url).toHaveValue('https://hooks.example.com/old');
    await user.clear(url);
    await user.type(url, 'https://192.168.1.10/hook');
    await user.click(within(form).getByRole('checkbox', { name: 'Record deleted' }));
    await user.click(within(form).getByRole('checkbox', { name: 'Expenses' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    // Refused: the reason under the URL, and everything typed still there.
    const refused = await within(form).findByText(
      'The URL must be on the public internet, not a private, local or reserved address.',
    );
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAttribute('aria-describedby', refused.id);
    expect(url).toHaveValue('https://192.168.1.10/hook');
    expect(within(form).getByRole('checkbox', { name: 'Record deleted' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Expenses' })).not.toBeChecked();

    await user.clear(url);
    await user.type(url, 'https://hooks.example.com/new');
    await user.click(within(form).getByRole('checkbox', { name: 'Active' }));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: /Edit webhook/ })).toBeNull());
    expect(puts.at(-1)).toEqual({
      url: 'https://hooks.example.com/new',
      events: ['record.created', 'record.deleted'],
      kinds: ['fuel', 'insurance', 'revision', 'renewal'],
      paused: true,
    });
    expect(await within(list).findByText('https://hooks.example.com/new')).toBeInTheDocument();
    expect(within(list).getByText('Paused')).toBeInTheDocument();
  });
});
