import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '../../../lib/router';
import type { ScrollState } from '../../../lib/scroll';

export const resetTokenParam = 'resetToken';

/**
 * The token of a password reset link (`/investor-services?resetToken=…`), read once and then
 * removed from the address bar, so that it does not stay in the history, in bookmarks or in a
 * shared screenshot of the address.
 */
export function useResetTokenFromAddress(): string | null {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get(resetTokenParam));

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has(resetTokenParam)) return;
    params.delete(resetTokenParam);
    const search = params.toString();
    // The same page: the reset form keeps the focus rather than the main region taking it (lib/scroll.ts).
    // Without this, a reader who began typing before the change rendered lost the focus to it.
    const state: ScrollState = { keepScroll: true };
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state });
  }, [location.pathname, location.search, location.hash, navigate]);

  return token;
}
