import { expect, it, vi } from 'vitest';
import { publicMessages } from '@everest/core/domain';

vi.mock('./app/app', () => ({ App: () => null }));

it("refuses to start without the #root mount point, with the spec's message", async () => {
  document.body.innerHTML = '';
  await expect(import('./main')).rejects.toThrow(publicMessages.rootElementNotFound);
});
