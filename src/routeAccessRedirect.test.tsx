import { history } from '@umijs/max';
import { waitFor } from '@testing-library/react';
import { adminWith as admin, signedInApp } from '@/testing/signedInApp';

const { open: openApp, visit } = signedInApp();

// Its own file, so its own router: after another test of routeAccess.test.tsx has rendered the app,
// a push to / no longer reaches the redirect route in jsdom.
describe('route access: the root redirect', () => {
  it('sends / to /home', async () => {
    await openApp(admin(2));

    await visit('/');

    // The redirect renders inside the lazily loaded layout; on a loaded machine that takes seconds.
    await waitFor(() => expect(history.location.pathname).toBe('/home'), { timeout: 20_000 });
  });
});
