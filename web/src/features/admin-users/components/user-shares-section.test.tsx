import { FluentProvider } from '@fluentui/react-components';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { AdminShare } from '@everest/core/contract';
import { everestTheme } from '../../../testing/themes';
import { notifyFailure, notifySuccess } from '../../../lib/admin/notify';
import { UserSharesSection } from './user-shares-section';

configure({ asyncUtilTimeout: 10_000 });

vi.mock('../../../lib/admin/notify', () => ({ notifySuccess: vi.fn(), notifyFailure: vi.fn() }));

const share: AdminShare = {
  id: 7,
  ownerId: 1,
  ownerEmail: 'olivia@example.com',
  ownerName: 'Olivia Brennan',
  delegateId: 2,
  delegateEmail: 'cpa@example.com',
  delegateName: 'Carl Accountant',
  personalScope: 'all',
  categories: [],
  propertyScope: 'all',
  propertyIds: [],
  endsOn: null,
  notify: false,
  status: 'active',
  createdAt: '2026-11-01T10:00:00.000Z',
};

const mutate = vi.fn();
vi.mock('../api/user-shares', () => ({
  useUserShares: () => ({ data: { sharingAllowed: true, given: [share], received: [] }, isError: false }),
  useEndShare: () => ({ mutate, isPending: false }),
}));

// happy-dom's Web Animations reject when Fluent's dialog motion is cancelled at unmount; without
// `animate` Fluent takes its test path and skips the motion.
const animate = Element.prototype.animate;
beforeAll(() => {
  Reflect.deleteProperty(Element.prototype, 'animate');
});
afterAll(() => {
  Element.prototype.animate = animate;
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const show = () =>
  render(
    <FluentProvider theme={everestTheme}>
      <UserSharesSection userId={1} label="Olivia Brennan" />
    </FluentProvider>,
  );

it('ends a share only once confirmed, and says so', async () => {
  show();
  fireEvent.click(screen.getByRole('button', { name: 'End share with Carl Accountant (cpa@example.com)' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'End the share with Carl Accountant?' });
  expect(mutate).not.toHaveBeenCalled();
  mutate.mockImplementation((_id: number, outcome: { onSuccess: (answer: { message: string }) => void }) =>
    outcome.onSuccess({ message: 'The share has ended.' }),
  );
  fireEvent.click(within(dialog).getByRole('button', { name: 'End share' }));
  expect(mutate).toHaveBeenCalledWith(7, expect.anything());
  expect(notifySuccess).toHaveBeenCalledWith('Share ended', 'The share has ended.');
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
});

it('closes the dialog with the failure when the share cannot be ended', async () => {
  show();
  fireEvent.click(screen.getByRole('button', { name: 'End share with Carl Accountant (cpa@example.com)' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'End the share with Carl Accountant?' });
  const error = new Error('Not found');
  mutate.mockImplementation((_id: number, outcome: { onError: (error: Error) => void }) => outcome.onError(error));
  fireEvent.click(within(dialog).getByRole('button', { name: 'End share' }));
  expect(vi.mocked(notifyFailure).mock.calls[0]?.slice(0, 2)).toEqual(['Share not ended', error]);
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
});
