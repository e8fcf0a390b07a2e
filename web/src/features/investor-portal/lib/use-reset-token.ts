import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '../../../lib/history';

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
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
  }, [location.pathname, location.search, location.hash, navigate]);

  return token;
}
