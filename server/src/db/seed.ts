import { createReadStream } from 'node:fs';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  demoPassword,
  demoUsers,
  fixtureFile,
  personalDocuments,
  properties,
  propertyDocuments,
} from '@everest/fixtures';
import { hashPassword } from '../features/auth/password-hash';
import type { FileStore, PutOptions } from '../features/files/file-store';
import { documentTypes, imageTypes } from '../features/files/sniff';
import { StoredFile, type IStoredFile } from '../features/files/stored-file.entity';
import { PropertyDocument } from '../features/property-documents/property-document.entity';
import { PersonalDocument } from '../features/personal-documents/personal-document.entity';
import { Property, type IProperty } from '../features/properties/property.entity';
import { replaceIdentifiers } from '../features/users/investor-identifiers';
import { PropertyAccess } from '../features/users/property-access.entity';
import { User, type IUser } from '../features/users/user.entity';

const fixturePut = (accept: PutOptions['accept']): PutOptions => ({
  maxBytes: 10 * 1024 * 1024,
  accept,
  tooLargeMessage: 'A fixture file is larger than 10 MB.',
  wrongTypeMessage: 'A fixture file has an unexpected type.',
});

async function storeFixture(em: EntityManager, files: FileStore, relative: string, accept: PutOptions['accept']): Promise<IStoredFile> {
  const blob = await files.put(createReadStream(fixtureFile(relative)), fixturePut(accept));
  const existing = await em.findOne(StoredFile, { sha256: blob.sha256 });
  return existing ?? em.create(StoredFile, blob);
}

const extension = (file: string) => file.slice(file.lastIndexOf('.'));
const filename = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/**
 * Loads the demo data into an empty database, in one transaction. A database that already has
 * users or properties is left alone, so a restart never duplicates anything.
 */
export async function seedDemoData(em: EntityManager, files: FileStore): Promise<'seeded' | 'skipped'> {
  return em.transactional(async (tx) => {
    if ((await tx.count(User)) > 0 || (await tx.count(Property)) > 0) return 'skipped';

    const propertyByName = new Map<string, IProperty>();
    for (const fixture of properties) {
      const image = await storeFixture(tx, files, fixture.image, imageTypes);
      const { image: _file, latitude, longitude, phone, website, ...fields } = fixture;
      const property = tx.create(Property, {
        ...fields,
        latitude: latitude ?? null,
        longitude: longitude ?? null,
        phone: phone ?? null,
        website: website ?? null,
        image: `/media/${image.sha256}${extension(fixture.image)}`,
      });
      propertyByName.set(fixture.name, property);
    }

    const passwordHash = await hashPassword(demoPassword);
    const userByEmail = new Map<string, IUser>();
    for (const fixture of demoUsers) {
      const { propertyAccess, identifiers: _identifiers, ...fields } = fixture;
      const user = tx.create(User, { ...fields, email: fields.email.toLowerCase(), passwordHash });
      userByEmail.set(user.email, user);
      for (const name of propertyAccess) {
        const property = propertyByName.get(name);
        if (!property) throw new Error(`Fixture user ${fixture.email} names an unknown property "${name}".`);
        tx.create(PropertyAccess, { user, property });
      }
    }
    // The added identifiers go through the service an administrator's edit uses, once every
    // account has its id: two demo accounts given one identifier stop the seed with its sentence.
    await tx.flush();
    for (const fixture of demoUsers) {
      if (fixture.identifiers?.length) await replaceIdentifiers(tx, userByEmail.get(fixture.email.toLowerCase())!, fixture.identifiers);
    }

    for (const fixture of propertyDocuments) {
      const file = await storeFixture(tx, files, fixture.file, documentTypes);
      const property = fixture.property === 'General' ? null : propertyByName.get(fixture.property);
      if (property === undefined) throw new Error(`Fixture document "${fixture.title}" names an unknown property.`);
      tx.create(PropertyDocument, {
        title: fixture.title,
        property,
        year: fixture.year,
        quarter: fixture.quarter,
        filename: filename(fixture.file),
        file,
      });
    }

    for (const fixture of personalDocuments) {
      const file = await storeFixture(tx, files, fixture.file, documentTypes);
      const user = userByEmail.get(fixture.userEmail.toLowerCase());
      if (!user) throw new Error(`Fixture document "${fixture.title}" names an unknown user.`);
      const { userEmail: _email, file: _file, ...fields } = fixture;
      tx.create(PersonalDocument, { ...fields, user, filename: filename(fixture.file), file });
    }
    return 'seeded';
  });
}
