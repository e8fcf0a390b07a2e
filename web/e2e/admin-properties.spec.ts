import { expect, test, type Locator, type Page } from '@playwright/test';
import { portalMessages } from '@everest/core/domain';
import { propertyDocuments } from '@everest/fixtures';
import { openAdminTab, toast, unique } from './support/admin';
import { axeOf } from './support/axe';

// The Properties tab of the admin panel against the real server and the local geocoder
// (server/test/stub-geocoder.ts: "Not Found" finds nothing, any other address Pasadena).

const stubCoordinates = { latitude: '34.147785', longitude: '-118.144516' };
const propertiesTable = (page: Page) => page.getByRole('table', { name: 'Properties' });

/** A real photo, drawn by the browser: the server re-encodes what it is sent. */
async function photo(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 800;
    canvas.height = 500;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    const sky = ctx.createLinearGradient(0, 0, 0, 500);
    sky.addColorStop(0, '#7aa7d8');
    sky.addColorStop(1, '#f3d9a4');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, 800, 500);
    ctx.fillStyle = '#8a5a44';
    ctx.fillRect(250, 180, 300, 260);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
}

async function addProperty(page: Page, name: string): Promise<Locator> {
  const add = page.getByRole('form', { name: 'Add Property' });
  await add.getByRole('textbox', { name: 'Property name' }).fill(name);
  await add.getByRole('button', { name: 'Add Property' }).click();
  await expect(toast(page, 'Property Created')).toBeVisible();
  // The new property opens in its editor, name first, to be completed.
  const editor = page.getByRole('form', { name: `Edit ${name}` });
  await expect(editor.getByRole('textbox', { name: 'Name' })).toBeFocused();
  return editor;
}

test('an administrator adds a property with a photo and coordinates, and it appears on /properties', async ({ page }) => {
  const name = unique('Cedar Point ');
  await openAdminTab(page, 'Properties');
  const editor = await addProperty(page, name);

  // Get Coordinates needs the address first.
  await editor.getByRole('button', { name: 'Get Coordinates' }).click();
  await expect(toast(page, portalMessages.missingAddressInformation)).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Address' })).toBeFocused();

  await editor.getByRole('textbox', { name: 'Address' }).fill('225 E. Colorado Blvd.');
  await editor.getByRole('textbox', { name: 'City' }).fill('Pasadena');
  await editor.getByRole('textbox', { name: 'State' }).fill('CA');
  await editor.getByRole('textbox', { name: 'ZIP code' }).fill('91101');
  await editor.getByRole('combobox', { name: 'Type' }).selectOption('residential');
  await editor.getByRole('combobox', { name: 'Status' }).selectOption('active');

  // Saving without coordinates is refused before anything is sent.
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, portalMessages.missingCoordinates)).toBeVisible();

  await editor.getByRole('button', { name: 'Get Coordinates' }).click();
  await expect(toast(page, 'Coordinates Found')).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Latitude' })).toHaveValue(stubCoordinates.latitude);
  await expect(editor.getByRole('textbox', { name: 'Longitude' })).toHaveValue(stubCoordinates.longitude);

  // A file that is not an image is refused when chosen.
  const picker = editor.getByLabel('Photo');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
  await expect(toast(page, portalMessages.invalidFileType)).toBeVisible();
  // Issue 35: so is one named and typed as an image that is none, with a sentence, and no broken preview.
  await picker.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a photo either') });
  await expect(toast(page, portalMessages.invalidFileType).filter({ hasText: 'fake.png is not a picture that can be shown.' })).toBeVisible();
  await expect(editor.getByRole('img', { name: `Chosen photo of ${name}` })).toHaveCount(0);
  await expect(picker).toHaveValue('');
  await picker.setInputFiles({ name: 'cedar-point.png', mimeType: 'image/png', buffer: await photo(page) });
  await expect(editor.getByRole('img', { name: `Chosen photo of ${name}` })).toBeVisible();

  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Property Updated')).toBeVisible();
  await expect(editor).toHaveCount(0);
  const row = propertiesTable(page).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(`${stubCoordinates.latitude}, ${stubCoordinates.longitude}`);
  await expect(row.getByRole('button', { name: `Edit ${name}` })).toBeFocused();
  await expect(row.locator('img')).toHaveAttribute('src', /^\/media\//);

  await page.goto('/properties');
  const card = page.getByRole('main').getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
  await expect(card).toBeVisible();
  const image = card.locator('img');
  await image.scrollIntoViewIfNeeded();
  await expect(image).toHaveAttribute('src', /\/media\//);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // Chromium reads AVIF: it takes the AVIF copies, the lighter ones.
  expect(await image.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/media\/[a-f0-9]{64}\.avif$/);

  // The home page's carousel offers the same AVIF copies (its slide may be out of view: lazy).
  await page.goto('/');
  await page.locator('#portfolio').scrollIntoViewIfNeeded();
  const slide = page.getByRole('region', { name: 'Our properties' }).getByRole('group').filter({ has: page.getByRole('heading', { name, exact: true }) });
  await expect(slide.locator('picture source[type="image/avif"]')).toHaveAttribute('srcset', /\/media\/[a-f0-9]{64}\.avif 480w/);
});

test("an address the geocoder does not know says 'Address Not Found'", async ({ page }) => {
  const name = unique('Nowhere Court ');
  await openAdminTab(page, 'Properties');
  const editor = await addProperty(page, name);
  await editor.getByRole('textbox', { name: 'Address' }).fill('1 Not Found Lane');
  await editor.getByRole('textbox', { name: 'City' }).fill('Atlantis');
  await editor.getByRole('textbox', { name: 'State' }).fill('ZZ');
  await editor.getByRole('button', { name: 'Get Coordinates' }).click();
  await expect(toast(page, portalMessages.addressNotFound)).toBeVisible();
  // Issue 35: the geocoder's sentence under the title starts with a capital letter.
  await expect(toast(page, portalMessages.addressNotFound)).toContainText('No place matches this address.');
  await expect(editor.getByRole('textbox', { name: 'Latitude' })).toHaveValue('');

  await editor.getByRole('textbox', { name: 'Latitude' }).fill('north');
  await editor.getByRole('textbox', { name: 'Longitude' }).fill('-118.1');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, portalMessages.invalidCoordinates)).toBeVisible();
  await expect(editor.getByRole('textbox', { name: 'Latitude' })).toBeFocused();

  // Escape leaves the editor without saving; the focus returns to the row.
  await page.keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(propertiesTable(page).getByRole('button', { name: `Edit ${name}` })).toBeFocused();
});

test('a property is deleted after confirmation; one that documents still name is refused with the reason', async ({ page }) => {
  const name = unique('Short Lived ');
  await openAdminTab(page, 'Properties');
  const editor = await addProperty(page, name);
  await editor.getByRole('button', { name: 'Cancel' }).click();

  await propertiesTable(page).getByRole('button', { name: `Delete ${name}` }).click();
  const dialog = page.getByRole('alertdialog', { name: `Delete ${name}?` });
  await dialog.getByRole('button', { name: 'Delete Property' }).click();
  await expect(toast(page, 'Property Deleted')).toBeVisible();
  await expect(propertiesTable(page).getByRole('row').filter({ hasText: name })).toHaveCount(0);

  const withDocuments = propertyDocuments.find((d) => d.property !== 'General')?.property;
  if (!withDocuments) throw new Error('the fixtures have property documents');
  await propertiesTable(page).getByRole('button', { name: `Delete ${withDocuments}`, exact: true }).click();
  await page.getByRole('alertdialog', { name: `Delete ${withDocuments}?` }).getByRole('button', { name: 'Delete Property' }).click();
  const refused = toast(page, portalMessages.deletionFailed);
  await expect(refused).toBeVisible();
  await expect(refused).toContainText(/document/i);
  await expect(propertiesTable(page).getByRole('row').filter({ hasText: withDocuments }).first()).toBeVisible();
});

test('the properties tab passes axe, with an editor open', async ({ page }) => {
  await openAdminTab(page, 'Properties');
  await expect(propertiesTable(page)).toBeVisible();
  const check = async () => {
    const axe = await axeOf(page)
      .include('#admin-panel-section')
      .options({ rules: { 'target-size': { enabled: true } } })
      .exclude('[data-tabster-dummy]')
      .analyze();
    expect(axe.violations).toEqual([]);
  };
  await check();
  await propertiesTable(page).getByRole('button', { name: /^Edit / }).first().click();
  await expect(page.getByRole('form', { name: /^Edit / })).toBeVisible();
  await check();
});
