import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { OnDemand } from './on-demand';

afterEach(cleanup);

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

it('renders the chunk\'s component once it is in, with its props, and at once when shown again', async () => {
  let resolve: (component: typeof Greeting) => void = () => {};
  let asked = 0;
  const load = () => {
    asked += 1;
    return new Promise<typeof Greeting>((done) => (resolve = done));
  };
  const first = render(<OnDemand load={load} props={{ name: 'Ada' }} />);
  expect(first.container.innerHTML).toBe('');
  await act(async () => resolve(Greeting));
  expect(screen.getByText('Hello Ada')).toBeTruthy();
  first.unmount();

  // Shown again (a menu reopened): in the first render, without asking for the chunk again.
  const again = render(<OnDemand load={load} props={{ name: 'Grace' }} />);
  expect(again.container.textContent).toBe('Hello Grace');
  expect(asked).toBe(1);
});

it('asks again for a chunk that failed to load, the next time it is shown', async () => {
  let attempt = 0;
  const load = () => {
    attempt += 1;
    return attempt === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(Greeting);
  };
  const first = render(<OnDemand load={load} props={{ name: 'Ada' }} />);
  await act(async () => {});
  expect(first.container.innerHTML).toBe('');
  first.unmount();

  render(<OnDemand load={load} props={{ name: 'Ada' }} />);
  await act(async () => {});
  expect(screen.getByText('Hello Ada')).toBeTruthy();
  expect(attempt).toBe(2);
});
