import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import {
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type Mock,
  type MockInstance,
} from 'vitest';
import { scrollDelayMs } from '../../lib/scroll';
import { disableWebAnimations, renderApp } from '../../testing/render-app';

beforeAll(disableWebAnimations);

let scrollIntoView: MockInstance<Element['scrollIntoView']>;
let scrollTo: Mock<typeof window.scrollTo>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  scrollIntoView = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(() => {});
  scrollTo = vi.fn<typeof window.scrollTo>();
  vi.stubGlobal('scrollTo', scrollTo);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const click = async (element: HTMLElement) => {
  await act(async () => {
    fireEvent.click(element);
  });
};
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const scrolledIds = () => scrollIntoView.mock.contexts.map((element) => (element as Element).id);
const mainNav = () => within(screen.getByRole('navigation', { name: 'Main' }));
const footerNav = () => within(screen.getByRole('navigation', { name: 'Footer' }));

describe('anchor links', () => {
  it('from another page go to / and smooth-scroll to the section after the delay', async () => {
    const { router } = renderApp('/management-team');
    await click(mainNav().getByRole('link', { name: 'Contact' }));

    expect(router.location.pathname).toBe('/');
    expect(router.location.hash).toBe('');
    advance(scrollDelayMs - 1);
    expect(scrollIntoView).not.toHaveBeenCalled();
    advance(1);
    expect(scrolledIds()).toEqual(['contact']);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'smooth', block: 'start' });
    expect(document.activeElement?.id).toBe('contact');
  });

  it('on the home page smooth-scroll at once, without a new history entry', async () => {
    const { router } = renderApp('/');
    const before = router.location.key;
    await click(footerNav().getByRole('link', { name: 'About Us' }));

    expect(scrolledIds()).toEqual(['about']);
    expect(router.location.key).toBe(before);
  });

  it('keep a real href, so that opening one in a new tab lands on the section', () => {
    renderApp('/properties');
    expect(footerNav().getByRole('link', { name: 'Investor Services' }).getAttribute('href')).toBe(
      '/#investor',
    );
  });

  it('leave a modified click to the browser', async () => {
    const { router } = renderApp('/properties');
    await click(footerNav().getByRole('link', { name: 'Portfolio' }));
    expect(router.location.pathname).toBe('/');

    await act(async () => {
      router.navigate('/properties');
    });
    await act(async () => {
      fireEvent.click(footerNav().getByRole('link', { name: 'Portfolio' }), { ctrlKey: true });
    });
    expect(router.location.pathname).toBe('/properties');
  });
});

describe('page links', () => {
  it('scroll to the top after the delay and put focus on the main region', async () => {
    const { router } = renderApp('/');
    await click(footerNav().getByRole('link', { name: 'Management Team' }));

    expect(router.location.pathname).toBe('/management-team');
    advance(scrollDelayMs - 1);
    expect(scrollTo).not.toHaveBeenCalled();
    advance(1);
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'auto' });
    expect(document.activeElement?.id).toBe('main-content');
  });

  it('do not scroll on the first page load', () => {
    renderApp('/management-team');
    advance(1000);
    expect(scrollTo).not.toHaveBeenCalled();
    expect(scrollIntoView).not.toHaveBeenCalled();
  });

  it('scroll to the section of a /#section address on page load', () => {
    renderApp('/#advantage');
    advance(scrollDelayMs);
    expect(scrolledIds()).toEqual(['advantage']);
  });
});

describe('back and forward', () => {
  it('return to where the reader was, also on the first page of the visit', async () => {
    const { router } = renderApp('/');
    const scrollBy = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    };
    scrollBy(900);
    await click(mainNav().getByRole('link', { name: 'Investor Services' }));
    scrollBy(0);
    advance(scrollDelayMs);
    scrollTo.mockClear();

    await act(async () => {
      await router.navigate(-1);
    });
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(router.location.pathname).toBe('/');
    expect(scrollTo).toHaveBeenCalledWith(0, 900);
    advance(1000);
    expect(scrollTo).toHaveBeenCalledTimes(1);
    scrollBy(0);
  });
});

describe('404 page', () => {
  it('Contact Us goes to / and scrolls to the contact section', async () => {
    const { router } = renderApp('/no-such-page');
    await click(screen.getByRole('link', { name: 'Contact Us' }));
    expect(router.location.pathname).toBe('/');
    advance(scrollDelayMs);
    expect(scrolledIds()).toEqual(['contact']);
  });

  it('Go Back on the first page goes home, later it goes back', async () => {
    const first = renderApp('/no-such-page');
    await click(screen.getByRole('button', { name: 'Go Back' }));
    expect(first.router.location.pathname).toBe('/');
    first.unmount();

    const { router } = renderApp('/properties');
    await act(async () => {
      await router.navigate('/gone');
    });
    await click(screen.getByRole('button', { name: 'Go Back' }));
    expect(router.location.pathname).toBe('/properties');
  });

  it('links to the pages the spec names', () => {
    renderApp('/no-such-page');
    const main = within(screen.getByRole('main'));
    const hrefs = Object.fromEntries(
      main.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(hrefs).toMatchObject({
      Home: '/',
      Properties: '/properties',
      'Property Map': '/property-map',
    });
    const byStart = (label: string) =>
      main.getAllByRole('link').find((link) => link.textContent?.startsWith(label))?.getAttribute('href');
    expect(byStart('Investor Portal')).toBe('/investor-services');
    expect(byStart('Transaction History')).toBe('/significant-transactions');
    expect(byStart('Investment Strategy')).toBe('/competitive-advantage');
    expect(byStart('Leadership Team')).toBe('/management-team');
    expect(byStart('Contact')).toBe('/#contact');
    expect(byStart('Property Portfolio')).toBe('/portfolio');
  });
});
