import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { jsonResponse, makeUser, mockApi, renderPage, storeUser } from '../../../test/utils';
import SettingsPage from './SettingsPage';

const renderSettings = () => renderPage(<SettingsPage />, { path: '/settings', route: '/settings' });

describe('SettingsPage', () => {
  it('loads the profile, then saves it with a Saving… label while busy', async () => {
    storeUser();
    let release: (r: Response) => void = () => {};
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser()),
      'PUT /api/users/me': () =>
        new Promise<Response>((resolve) => {
          release = resolve;
        }),
    });
    const { user } = renderSettings();
    const username = await screen.findByLabelText('Username');
    expect(username).toHaveValue('alice');
    await user.clear(username);
    await user.type(username, 'alice2');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const busy = await screen.findByRole('button', { name: 'Saving…' });
    expect(busy).toBeDisabled();
    release(jsonResponse(makeUser({ username: 'alice2' })));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();

    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      username: 'alice2',
      email: 'alice@example.com',
      language: 'en',
      country: 'GENERIC',
      currency: 'EUR',
      distanceUnit: 'km',
      volumeUnit: 'L',
      consumptionUnit: 'L_100KM',
    });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ username: 'alice2' });
  });

  it("a new country proposes its currency and units but keeps the user's until asked; they are saved and read", async () => {
    storeUser();
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ currency: 'RON' })),
      'PUT /api/users/me': (_url, init) =>
        jsonResponse(makeUser(JSON.parse(String(init?.body)) as Parameters<typeof makeUser>[0])),
    });
    const { user } = renderSettings();
    const currency = await screen.findByLabelText('Currency');
    expect(currency).toHaveValue('RON');
    expect(screen.queryByRole('button', { name: 'Use these' })).toBeNull();

    await user.selectOptions(screen.getByLabelText(/^Country/), 'US');
    // Proposed, not put in place: the chosen currency stays until the user takes the proposal.
    expect(await screen.findByText(/In United States drivers usually read US dollar/)).toBeInTheDocument();
    expect(screen.getByLabelText('Currency')).toHaveValue('RON');
    await user.click(screen.getByRole('button', { name: 'Use these' }));
    expect(screen.getByLabelText('Currency')).toHaveValue('USD');
    expect(screen.getByLabelText('Distance')).toHaveValue('mi');
    expect(screen.getByLabelText('Fuel volume')).toHaveValue('USGAL');
    expect(screen.getByLabelText('Consumption')).toHaveValue('MPG_US');
    await user.selectOptions(screen.getByLabelText('Consumption'), 'KM_L');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument();

    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      country: 'US',
      currency: 'USD',
      distanceUnit: 'mi',
      volumeUnit: 'USGAL',
      consumptionUnit: 'KM_L',
    });
    // Every card reads the saved choice from the session.
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({
      currency: 'USD',
      distanceUnit: 'mi',
      volumeUnit: 'USGAL',
      consumptionUnit: 'KM_L',
    });
  });

  it('alerts the settings error and shows a taken username next to the field', async () => {
    storeUser();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser()),
      'PUT /api/users/me': () =>
        jsonResponse(
          { code: 'USERNAME_TAKEN', message: 'Username taken', details: [{ field: 'username' }] },
          409,
        ),
    });
    const { user } = renderSettings();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to save settings. Username taken'));
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('This username is already taken.');
  });

  it('disables the GDPR consent checkbox once consent is given', async () => {
    storeUser();
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ gdprConsent: false })),
      'PUT /api/users/me/gdpr-consent': () => jsonResponse(makeUser({ gdprConsent: true })),
    });
    const { user } = renderSettings();
    const consent = await screen.findByRole('checkbox', { name: /GDPR agreement/ });
    expect(consent).not.toBeChecked();
    expect(consent).toBeEnabled();
    await user.click(consent);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: /GDPR agreement/ })).toBeDisabled());
    expect(screen.getByRole('checkbox', { name: /GDPR agreement/ })).toBeChecked();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/users/me/gdpr-consent');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ consent: true });
  });

  it('shows an already given consent as checked and disabled', async () => {
    storeUser();
    mockApi({ 'GET /api/users/me': () => jsonResponse(makeUser({ gdprConsent: true })) });
    renderSettings();
    const consent = await screen.findByRole('checkbox', { name: /GDPR agreement/ });
    expect(consent).toBeChecked();
    expect(consent).toBeDisabled();
    // Erasing one's data is "Delete my account" on this page now, not a request to the administrator.
    const hint = screen.getByText(/This consent cannot be withdrawn here/);
    expect(hint).toHaveTextContent('delete your account under “Your data” below');
    expect(hint).not.toHaveTextContent(/administrator/);
    expect(screen.getByRole('button', { name: 'Delete my account' })).toBeInTheDocument();
  });

  it('toggles dark mode on the body and remembers it', async () => {
    storeUser();
    mockApi({ 'GET /api/users/me': () => jsonResponse(makeUser()) });
    const { user } = renderSettings();
    await user.click(await screen.findByRole('checkbox', { name: 'Dark mode' }));
    expect(document.body).toHaveClass('dark-mode');
    expect(localStorage.getItem('darkMode')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: 'Dark mode' }));
    expect(document.body).not.toHaveClass('dark-mode');
    expect(localStorage.getItem('darkMode')).toBe('false');
  });

  it('applies a new language immediately', async () => {
    storeUser();
    mockApi({ 'GET /api/users/me': () => jsonResponse(makeUser()) });
    const changeLanguage = vi.spyOn(i18n, 'changeLanguage').mockResolvedValue(i18n.t);
    const { user } = renderSettings();
    await user.selectOptions(await screen.findByLabelText('Language'), 'Română');
    expect(changeLanguage).toHaveBeenCalledWith('ro');
    expect(localStorage.getItem('language')).toBe('ro');
  });

  it('moves the country with the language unless another was chosen (renewal types follow it)', async () => {
    storeUser();
    const fetchMock = mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ language: 'en', country: 'GENERIC' })),
      'PUT /api/users/me': () => jsonResponse(makeUser({ language: 'es', country: 'ES' })),
    });
    vi.spyOn(i18n, 'changeLanguage').mockResolvedValue(i18n.t);
    const { user } = renderSettings();
    const country = await screen.findByRole('combobox', { name: /Country/ });
    expect(country).toHaveValue('GENERIC');
    await user.selectOptions(screen.getByLabelText('Language'), 'Español');
    expect(country).toHaveValue('ES');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ language: 'es', country: 'ES' });
    // A country chosen by hand stays when the language changes again.
    await user.selectOptions(country, 'RO');
    await user.selectOptions(screen.getByLabelText('Language'), 'English');
    expect(country).toHaveValue('RO');
  });
  it('says which AI answers, and tells an administrator how to connect a model', async () => {
    storeUser();
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser({ role: 'ADMIN' })),
      'GET /api/ai/status': () =>
        jsonResponse({ provider: 'builtin', model: null, languages: ['en', 'ro', 'es'] }),
    });
    renderSettings();
    expect(await screen.findByRole('heading', { name: 'AI assistant' })).toBeInTheDocument();
    expect(await screen.findByText(/Built-in mechanic: answers from your records/)).toBeInTheDocument();
    expect(screen.getByText(/AI_BASE_URL/)).toBeInTheDocument();
  });

  it('names the model when an LLM answers, without the admin hint for a user', async () => {
    storeUser();
    mockApi({
      'GET /api/users/me': () => jsonResponse(makeUser()),
      'GET /api/ai/status': () =>
        jsonResponse({ provider: 'llm', model: 'llama3.1', languages: ['en', 'ro', 'es'] }),
    });
    renderSettings();
    expect(await screen.findByText('AI model llama3.1, grounded in your records.')).toBeInTheDocument();
    expect(screen.queryByText(/AI_BASE_URL/)).not.toBeInTheDocument();
  });
});
