import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../../test/utils';
import GdprPage from './GdprPage';

describe('GdprPage', () => {
  it('states the rights and goes home with Back when opened in a new tab', async () => {
    const { user } = renderPage(<GdprPage />, { path: '/gdpr', route: '/gdpr' });
    expect(screen.getByRole('heading', { name: 'Data protection agreement (GDPR)' })).toBeInTheDocument();
    for (const right of [/^Access:/, /^Rectification:/, /^Erasure:/, /^Portability:/]) {
      expect(screen.getByText(right)).toBeInTheDocument();
    }
    // Erasure and portability need no administrator any more: Settings does both.
    expect(screen.getByText(/“Download my data”.*“Delete my account” \(erasure\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});
