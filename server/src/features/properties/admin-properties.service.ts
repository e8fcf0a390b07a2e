import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AdminProperty,
  CreatePropertyBody,
  DeletePropertyBody,
  MessageAnswer,
  PropertyAnswer,
  UpdatePropertyBody,
} from '@everest/core/contract';
import { HttpError } from '../../http/errors';
import type { SessionUser } from '../../http/state';
import { changedFields, recordAdminAction, type AuditFields } from '../audit/admin-audit';
import type { FileStore, ReceivedFile } from '../files/file-store';
import { StoredFile } from '../files/stored-file.entity';
import { PropertyDocument } from '../property-documents/property-document.entity';
import { PropertyAccess } from '../users/property-access.entity';
import { Property, type IProperty } from './property.entity';
import { toPublicProperty } from './properties.service';
import { storePhotoVariants, variantUrls, type PhotoVariant } from './property-photos';

/** Who writes, from where: every write is audited with both. */
export interface Actor {
  user: SessionUser;
  clientAddress: string;
}

const notFound = () => new HttpError(404, 'This property does not exist. It may have been deleted.');
const nameTaken = (name: string) =>
  new HttpError(409, `A property named "${name}" already exists. Please choose another name.`);

export function toAdminProperty(property: IProperty): AdminProperty {
  return { ...toPublicProperty(property), investorRelations: property.investorRelations };
}

/** Every property, inactive ones too, by name; or only those flagged for investor relations. */
export async function listAdminProperties(em: EntityManager, onlyInvestorRelations = false): Promise<AdminProperty[]> {
  const where = onlyInvestorRelations ? { investorRelations: true } : {};
  const rows = await em.find(Property, where, { orderBy: { name: 'asc', id: 'asc' } });
  return rows.map(toAdminProperty);
}

export async function getAdminProperty(em: EntityManager, id: number): Promise<AdminProperty> {
  const property = await em.findOne(Property, id);
  if (!property) throw notFound();
  return toAdminProperty(property);
}

/** Another property with this name in any letter case (the unique index on lower(name) agrees). */
async function nameInUse(em: EntityManager, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await em.execute<{ id: number }[]>(
    'select id from properties where lower(name) = lower(?) and id <> ? limit 1',
    [name, exceptId ?? 0],
  );
  return row !== undefined;
}

/** Two administrators saving the same name at the same moment: the unique index decides. */
function conflictOnName(name: string) {
  return (error: unknown): never => {
    if (error instanceof UniqueConstraintViolationException) throw nameTaken(name);
    throw error;
  };
}

/**
 * Adds a property by name. It starts inactive, so that it stays off the public pages until an
 * administrator has saved it with its address, photo and status.
 */
export async function createProperty(em: EntityManager, actor: Actor, body: CreatePropertyBody): Promise<PropertyAnswer> {
  const property = await em
    .transactional(async (tx) => {
      if (await nameInUse(tx, body.name)) throw nameTaken(body.name);
      const created = tx.create(Property, { name: body.name, status: 'inactive', investorRelations: true });
      await tx.flush();
      recordAdminAction(tx, actor.user, actor.clientAddress, {
        action: 'create-property',
        subject: { type: 'property', id: created.id, label: created.name },
        after: auditedFields(created),
      });
      return created;
    })
    .catch(conflictOnName(body.name));
  return { message: `Property "${property.name}" created.`, property: toAdminProperty(property) };
}

/** What an edit's audit row compares: every field an administrator can change. */
function auditedFields(p: IProperty): AuditFields {
  return {
    name: p.name,
    type: p.type,
    address: p.address,
    city: p.city,
    state: p.state,
    zipCode: p.zipCode,
    phone: p.phone ?? null,
    website: p.website ?? null,
    status: p.status,
    latitude: p.latitude ?? null,
    longitude: p.longitude ?? null,
    investorRelations: p.investorRelations,
    image: p.image ?? null,
  };
}

/**
 * Saves a property's fields and, when a photo came with them, its web-sized copies. The slow
 * part (re-encoding the photo) runs before the transaction, and only once the property and its
 * name are known to be fine; its files are in the store before any row names them.
 */
export async function updateProperty(
  em: EntityManager,
  files: FileStore,
  actor: Actor,
  body: UpdatePropertyBody,
  upload: ReceivedFile | null,
): Promise<PropertyAnswer> {
  if ((await em.count(Property, { id: body.id })) === 0) throw notFound();
  if (await nameInUse(em, body.name, body.id)) throw nameTaken(body.name);
  const photo = upload ? await storePhotoVariants(upload, files) : null;

  const property = await em
    .transactional(async (tx) => {
      const target = await tx.findOne(Property, body.id, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!target) throw notFound();
      const before = auditedFields(target);
      applyFields(target, body);
      if (photo) await setPhoto(tx, target, photo);
      else applyImagePath(target, body.image);
      await tx.flush();
      const changes = changedFields(before, auditedFields(target));
      recordAdminAction(tx, actor.user, actor.clientAddress, {
        action: 'update-property',
        subject: { type: 'property', id: target.id, label: target.name },
        ...changes,
      });
      return target;
    })
    .catch(conflictOnName(body.name));
  return { message: `Property "${property.name}" saved.`, property: toAdminProperty(property) };
}

/** The body's fields onto the property; an optional field left out keeps its value. */
function applyFields(target: IProperty, body: UpdatePropertyBody): void {
  target.name = body.name;
  target.type = body.type;
  target.address = body.address;
  target.city = body.city;
  target.state = body.state;
  target.status = body.status;
  target.latitude = body.latitude;
  target.longitude = body.longitude;
  target.investorRelations = body.investorRelations;
  if (body.zipCode !== undefined) target.zipCode = body.zipCode;
  if (body.phone !== undefined) target.phone = body.phone === '' ? null : body.phone;
  if (body.website !== undefined) target.website = body.website === '' ? null : body.website;
}

/**
 * The text field `image` without a new photo: absent or the current path keeps the photo, an
 * empty string removes it. Any other path is refused: a photo is only ever one that was uploaded
 * and re-encoded here, never an address someone typed.
 */
function applyImagePath(target: IProperty, image: string | undefined): void {
  if (image === undefined || image === target.image) return;
  if (image !== '') throw new HttpError(400, 'To change the photo, please upload a new one.');
  target.image = null;
  target.imageVariants = null;
}

async function setPhoto(tx: EntityManager, target: IProperty, variants: PhotoVariant[]): Promise<void> {
  for (const variant of variants) {
    const { width: _width, ...blob } = variant;
    // Content-addressed: the same copy may already be stored for another property.
    if (!(await tx.findOne(StoredFile, { sha256: blob.sha256 }))) tx.create(StoredFile, blob);
  }
  const urls = variantUrls(variants);
  target.imageVariants = urls;
  // Where one photo fits (a link preview, an e-mail): the widest WebP copy, which every reader takes.
  target.image = urls.filter((v) => v.type === 'image/webp').at(-1)?.url ?? null;
}

/**
 * Deletes a property that nothing points at any more. Its row is locked first, so that no
 * document or access row can be added to it between the count and the delete (adding one waits
 * for the lock, then finds the property gone).
 */
export async function deleteProperty(em: EntityManager, actor: Actor, body: DeletePropertyBody): Promise<MessageAnswer> {
  return em.transactional(async (tx) => {
    const property = await tx.findOne(Property, body.propertyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!property) throw notFound();
    const documents = await tx.count(PropertyDocument, { property });
    const accessRows = await tx.count(PropertyAccess, { property });
    if (documents > 0 || accessRows > 0) throw new HttpError(409, stillInUse(property.name, documents, accessRows));
    recordAdminAction(tx, actor.user, actor.clientAddress, {
      action: 'delete-property',
      subject: { type: 'property', id: property.id, label: property.name },
      before: auditedFields(property),
    });
    tx.remove(property);
    return { message: `Property "${property.name}" deleted.` };
  });
}

function stillInUse(name: string, documents: number, accessRows: number): string {
  const counts = [
    documents > 0 ? `${documents} ${documents === 1 ? 'document' : 'documents'}` : null,
    accessRows > 0 ? `${accessRows} ${accessRows === 1 ? "user's" : "users'"} property access` : null,
  ].filter((part) => part !== null);
  const steps = [documents > 0 ? 'move or delete its documents' : null, accessRows > 0 ? 'remove its property access' : null].filter(
    (step) => step !== null,
  );
  return `"${name}" cannot be deleted: ${counts.join(' and ')} still point at it. Please ${steps.join(' and ')} first.`;
}
