import { expect, it, vi } from 'vitest';

vi.mock('./app/app', () => ({ App: () => null }));

it("refuses to start without the #root mount point, with the spec's message", async () => {
  document.body.innerHTML = '';
  await expect(import('./main')).rejects.toThrow('Root element not found');
});
