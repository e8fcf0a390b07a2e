import { FluentProvider } from '@fluentui/react-components';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { AdminProperty } from '@everest/core/contract';
import { portalMessages } from '@everest/core/domain';
import { createQueryClient } from '../../../lib/query-client';
import { everestTheme } from '../../../testing/themes';
import { showToast } from '../../../lib/toast';
import { PropertyEditor } from './property-editor';

configure({ asyncUtilTimeout: 10_000 });
vi.mock('../../../lib/toast', () => ({ showToast: vi.fn() }));

const property: AdminProperty = {
  id: 7,
  name: 'Cedar Point',
  image: null,
  imageVariants: null,
  type: 'residential',
  status: 'active',
  address: '',
  city: 'Pasadena',
  state: 'CA',
  zipCode: '',
  phone: null,
  website: null,
  latitude: null,
  longitude: null,
  investorRelations: true,
};

/** A stand-in for XMLHttpRequest: the test decides when the upload moves and how it ends. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  withCredentials = false;
  method = '';
  url = '';
  body: FormData | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
}

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  vi.mocked(showToast).mockClear();
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  fetchMock = vi.fn(async () => new Response(JSON.stringify({ error: 'Not stubbed' }), { status: 500 }));
  vi.stubGlobal('fetch', fetchMock);
  // jsdom-like environments have no object URLs for the chosen photo's preview.
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderEditor(onClose = vi.fn()) {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FluentProvider theme={everestTheme}>
        <PropertyEditor property={property} onClose={onClose} />
      </FluentProvider>
    </QueryClientProvider>,
  );
  return onClose;
}

const lastToast = () => vi.mocked(showToast).mock.calls.at(-1)?.[0];
const field = (name: RegExp) => screen.getByRole('textbox', { name });

it("refuses to save without the required fields, names them, and sends nothing", async () => {
  renderEditor();
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(lastToast()).toMatchObject({ title: portalMessages.missingRequiredFields, description: 'Please fill in: Address.' });
  await waitFor(() => expect(document.activeElement).toBe(field(/^Address/)));
  expect(fetchMock).not.toHaveBeenCalled();
  expect(FakeXhr.last).toBeNull();
});

it("Get Coordinates needs the address; a place the geocoder does not know is 'Address Not Found'", async () => {
  renderEditor();
  fireEvent.click(screen.getByRole('button', { name: 'Get Coordinates' }));
  expect(lastToast()?.title).toBe(portalMessages.missingAddressInformation);
  expect(fetchMock).not.toHaveBeenCalled();

  fetchMock.mockResolvedValueOnce(
    new Response(JSON.stringify({ error: 'Address Not Found: no place matches this address.' }), { status: 404 }),
  );
  fireEvent.change(field(/^Address/), { target: { value: '1 Not Found Lane' } });
  fireEvent.click(screen.getByRole('button', { name: 'Get Coordinates' }));
  await waitFor(() => expect(lastToast()?.title).toBe(portalMessages.addressNotFound));
  // Issue 35: the sentence after the catalogue title starts with a capital.
  expect(lastToast()?.description).toBe('No place matches this address.');
  expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/admin/geocode?q=1+Not+Found+Lane%2C+Pasadena%2C+CA');
});

it('fills in the coordinates found, then sends the photo as multipart and shows its progress', async () => {
  const onClose = renderEditor();
  fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ latitude: '34.147785', longitude: '-118.144516' })));
  fireEvent.change(field(/^Address/), { target: { value: '225 E. Colorado Blvd.' } });
  fireEvent.click(screen.getByRole('button', { name: 'Get Coordinates' }));
  await waitFor(() => expect(field(/^Latitude/)).toHaveProperty('value', '34.147785'));
  expect(field(/^Longitude/)).toHaveProperty('value', '-118.144516');

  // happy-dom decodes no image: the browser's decoder stands in as one that can (issue 35 refuses
  // a file it cannot decode; admin-properties.spec.ts checks that in Chromium).
  vi.stubGlobal('createImageBitmap', () => Promise.resolve({ close: () => undefined }));
  const input = screen.getByLabelText(/^Photo/) as HTMLInputElement;
  const image = new File(['png'], 'front.png', { type: 'image/png' });
  fireEvent.change(input, { target: { files: [image] } });
  await screen.findByRole('img', { name: 'Chosen photo of Cedar Point' });

  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(FakeXhr.last).not.toBeNull());
  const xhr = FakeXhr.last as FakeXhr;
  expect([xhr.method, xhr.url]).toEqual(['POST', '/api/admin/update-property']);
  expect(xhr.body?.get('image')).toBeInstanceOf(File);
  expect(xhr.body?.get('latitude')).toBe('34.147785');
  expect(xhr.body?.get('investorRelations')).toBe('true');

  act(() => xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 }));
  await screen.findByText('40%');
  screen.getByRole('button', { name: 'Saving...' });

  const saved = { ...property, address: '225 E. Colorado Blvd.', latitude: '34.147785', longitude: '-118.144516', image: '/media/abc.webp' };
  xhr.status = 200;
  xhr.responseText = JSON.stringify({ message: 'Saved', property: saved });
  act(() => xhr.onload?.());
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(lastToast()?.title).toBe('Property Updated');
});
