import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePasswordBody, loginBody, requestPasswordResetBody, resetPasswordBody } from './auth';
import { bulkImportRow, bulkImportUsersBody, previewBulkImportBody, splitPropertyAccess } from './bulk-import';
import { contactBody } from './contact';
import { downloadQuery, investorDocumentsAnswer, updateDocumentBody, uploadDocumentBody } from './document';
import { updatePropertyBody } from './property';
import { createUserBody, editUserBody, updateProfileBody, user } from './user';
import { adminPersonalDocumentsQuery, editPersonalDocumentBody, uploadPersonalDocumentBody } from './personal-document';
import { loginVerifyBody } from './second-step';
import { activityEntryParams } from './activity';
import { endShareBody, onBehalfOf } from './shares';
import { maxReminderDocuments, receiptDocumentParams, receiptDocumentsQuery, receiptPageQuery, remindBody } from './read-receipts';

/** The first error message of a failed parse. */
function firstError(schema: z.ZodType, input: unknown): string | undefined {
  const result = schema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

const thisYear = new Date().getFullYear();

describe('contact form', () => {
  const valid = {
    firstName: ' Jane ',
    lastName: 'Doe',
    email: ' Jane@Example.COM ',
    subject: 'Investing',
    message: 'Hello',
    recaptchaToken: 'token',
  };

  it('trims texts and lower-cases the e-mail', () => {
    const body = contactBody.parse(valid);
    expect(body.firstName).toBe('Jane');
    expect(body.email).toBe('jane@example.com');
  });

  it('refuses an empty required field with the spec message', () => {
    expect(firstError(contactBody, { ...valid, subject: '   ' })).toBe('Please fill in all required fields.');
    const { lastName: _omitted, ...withoutLastName } = valid;
    expect(firstError(contactBody, withoutLastName)).toBe('Please fill in all required fields.');
  });

  it('refuses a missing captcha answer with the spec message', () => {
    expect(firstError(contactBody, { ...valid, recaptchaToken: '' })).toBe(
      'Please complete the reCAPTCHA verification.',
    );
  });

  it('refuses an e-mail without a domain', () => {
    expect(firstError(contactBody, { ...valid, email: 'jane@' })).toBe('Please enter a valid email address.');
  });

  it('refuses a message over 5000 characters', () => {
    expect(firstError(contactBody, { ...valid, message: 'x'.repeat(5001) })).toBe(
      'Message must be 5000 characters or fewer.',
    );
    expect(contactBody.safeParse({ ...valid, message: 'x'.repeat(5000) }).success).toBe(true);
  });
});

describe('sign-in and passwords', () => {
  it('asks for the e-mail with the spec text when it is empty', () => {
    expect(firstError(loginBody, { email: '', password: 'x' })).toBe('Please enter your email address');
    expect(firstError(requestPasswordResetBody, {})).toBe('Please enter your email address');
  });

  it('refuses an e-mail longer than 254 characters', () => {
    const email = `${'a'.repeat(250)}@example.com`;
    expect(firstError(requestPasswordResetBody, { email })).toBe('Email address must be 254 characters or fewer.');
  });

  it('refuses a reset whose passwords differ', () => {
    expect(
      firstError(resetPasswordBody, { token: 't', password: 'Everest@2025', confirmPassword: 'Everest@2026' }),
    ).toBe('Passwords do not match');
  });

  it('refuses a reset with an empty field', () => {
    expect(firstError(resetPasswordBody, { token: 't', password: '', confirmPassword: '' })).toBe(
      'Please fill in all fields',
    );
  });

  it('refuses a weak new password with the rule message', () => {
    expect(firstError(resetPasswordBody, { token: 't', password: 'everest', confirmPassword: 'everest' })).toMatch(
      /^Password must contain at least 8 characters, one uppercase letter/,
    );
    expect(firstError(changePasswordBody, { newPassword: 'Everest2025' })).toBe(
      'Password must contain one special character (@$!%*?&)',
    );
  });

  it('lets the current password be left out (administrators)', () => {
    expect(changePasswordBody.parse({ newPassword: 'Everest@2025' })).toEqual({ newPassword: 'Everest@2025' });
  });
});

describe('users', () => {
  it('refuses an entity of 201 characters and accepts 200', () => {
    const body = { email: 'a@example.com', entity: 'e'.repeat(201) };
    expect(firstError(updateProfileBody, body)).toBe('Entity must be 200 characters or fewer.');
    expect(updateProfileBody.safeParse({ ...body, entity: 'e'.repeat(200) }).success).toBe(true);
  });

  it('creates a user from a name or an entity, not from an e-mail alone', () => {
    expect(createUserBody.safeParse({ name: 'Jane Doe', email: 'jane@example.com' }).success).toBe(true);
    expect(createUserBody.safeParse({ entity: 'Doe Trust', email: 'jane@example.com' }).success).toBe(true);
    expect(firstError(createUserBody, { name: ' ', email: 'jane@example.com' })).toBe(
      'Please enter a full name or an entity.',
    );
  });

  it('defaults a new user to role user, no properties, no welcome e-mail, a generated password', () => {
    const body = createUserBody.parse({ name: 'Jane Doe', email: 'jane@example.com', password: '' });
    expect(body).toMatchObject({ role: 'user', properties: [], sendWelcomeEmail: false });
    expect(body.password).toBeUndefined();
  });

  it('refuses a typed password that breaks the rules', () => {
    expect(firstError(createUserBody, { name: 'Jane', email: 'jane@example.com', password: 'short' })).toMatch(
      /^Password must contain/,
    );
  });

  it('refuses an unknown role with a sentence', () => {
    expect(firstError(editUserBody, { userId: 3, role: 'owner' })).toBe(
      'Please choose a role: Investor, Everest Employee or Administrator.',
    );
  });

  it('reads a user id given as a string and refuses one that is not a number', () => {
    expect(editUserBody.parse({ userId: '3' }).userId).toBe(3);
    expect(firstError(editUserBody, { userId: 'abc' })).toBe('Please choose a user.');
    expect(firstError(editUserBody, { userId: 0 })).toBe('Please choose a user.');
    expect(firstError(editUserBody, { userId: '0x10' })).toBe('Please choose a user.');
    expect(firstError(editUserBody, { userId: 2.5 })).toBe('Please choose a user.');
  });

  it("trims an investor's added identifiers and keeps them as typed", () => {
    expect(editUserBody.parse({ userId: 3, identifiers: ['  Smith Family Trust dtd 3/1/2001 ', 'XXX-XX-1234'] }).identifiers).toEqual([
      'Smith Family Trust dtd 3/1/2001',
      'XXX-XX-1234',
    ]);
    expect(editUserBody.parse({ userId: 3 }).identifiers).toBeUndefined();
  });

  it('refuses an identifier that is too short, too long, without words or with a line break', () => {
    expect(firstError(editUserBody, { userId: 3, identifiers: [' x '] })).toBe('An identifier must be at least 2 characters.');
    expect(firstError(editUserBody, { userId: 3, identifiers: ['a'.repeat(201)] })).toBe('An identifier must be 200 characters or fewer.');
    expect(firstError(editUserBody, { userId: 3, identifiers: ['--'] })).toBe('An identifier needs a letter or a digit: “--” has none.');
    expect(firstError(editUserBody, { userId: 3, identifiers: ['Smith\nTrust'] })).toBe(
      'An identifier cannot contain line breaks, tabs or other control characters.',
    );
    expect(firstError(editUserBody, { userId: 3, identifiers: 'Smith Trust' })).toBe('Identifiers must be a list.');
  });

  it('refuses more than 20 added identifiers', () => {
    const identifiers = Array.from({ length: 21 }, (_, i) => `Trust ${i}`);
    expect(firstError(editUserBody, { userId: 3, identifiers })).toBe('An investor can have at most 20 added identifiers.');
    expect(editUserBody.safeParse({ userId: 3, identifiers: identifiers.slice(1) }).success).toBe(true);
  });

  it('describes a user answer with lastLoginAt as an ISO string or null', () => {
    const answer = {
      id: 1,
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane@example.com',
      entity: '',
      streetAddress: '',
      city: '',
      state: '',
      zipCode: '',
      role: 'user',
      isActive: true,
      lastLoginAt: null,
      previousLoginAt: null,
    };
    expect(user.safeParse(answer).success).toBe(true);
    expect(user.safeParse({ ...answer, lastLoginAt: '2025-04-01T16:00:00.000Z' }).success).toBe(true);
    expect(user.safeParse({ ...answer, lastLoginAt: 'yesterday' }).success).toBe(false);
  });
});

describe('property documents', () => {
  const upload = { title: ' Q1 report ', property: 'General', year: '2025', quarter: 'Q1', emailNotification: 'true' };

  it('reads multipart strings: the year as a number and the flag as a boolean', () => {
    expect(uploadDocumentBody.parse(upload)).toEqual({
      title: 'Q1 report',
      property: 'General',
      year: 2025,
      quarter: 'Q1',
      emailNotification: true,
      notifyLater: false,
    });
    expect(uploadDocumentBody.parse({ ...upload, notifyLater: 'true' }).notifyLater).toBe(true);
    expect(uploadDocumentBody.parse({ ...upload, emailNotification: 'false' }).emailNotification).toBe(false);
    expect(uploadDocumentBody.parse({ ...upload, emailNotification: undefined }).emailNotification).toBe(false);
  });

  it('accepts the JSON forms of the same fields', () => {
    expect(updateDocumentBody.parse({ documentId: 4, title: 'T', property: 'Oak Court', year: 2024, quarter: 'Q4' }))
      .toMatchObject({ documentId: 4, year: 2024 });
  });

  it('refuses a quarter outside Q1 to Q4', () => {
    expect(firstError(uploadDocumentBody, { ...upload, quarter: 'Q5' })).toBe('Please choose a quarter from Q1 to Q4.');
    expect(firstError(uploadDocumentBody, { ...upload, quarter: 'q1' })).toBe('Please choose a quarter from Q1 to Q4.');
  });

  it('refuses years before 2014 and after the current year', () => {
    expect(firstError(uploadDocumentBody, { ...upload, year: '2013' })).toBe('Please choose a year from 2014 onwards.');
    expect(firstError(uploadDocumentBody, { ...upload, year: String(thisYear + 2) })).toBe(
      'Please choose a year that is not in the future.',
    );
    expect(firstError(uploadDocumentBody, { ...upload, year: '' })).toBe('Please choose a year.');
    expect(firstError(uploadDocumentBody, { ...upload, year: '20x5' })).toBe('Please choose a year.');
  });

  it('refuses a flag that is neither yes nor no', () => {
    expect(firstError(uploadDocumentBody, { ...upload, emailNotification: 'maybe' })).toBe(
      'Email notification must be yes or no.',
    );
  });

  it('reads type=user as a personal download and anything else as a property download', () => {
    expect(downloadQuery.parse({ type: 'user', token: 't' })).toEqual({ type: 'user', token: 't', preview: false });
    expect(downloadQuery.parse({}).type).toBe('property');
  });

  it('answers inline only for preview=1 (or true)', () => {
    expect(downloadQuery.parse({ preview: '1' }).preview).toBe(true);
    expect(downloadQuery.parse({ preview: 'true' }).preview).toBe(true);
    expect(downloadQuery.parse({ preview: '0' }).preview).toBe(false);
  });

  it('tells the two kinds of investor documents apart by documentType', () => {
    const property = {
      id: 1,
      title: 'Report',
      property: 'General',
      year: 2025,
      quarter: 'Q2',
      filename: 'r.pdf',
      fileSize: 10,
      uploadedAt: '2025-04-01T16:00:00.000Z',
      fileExists: true,
      documentType: 'property',
      opened: false,
      version: 2,
      correctedAt: '2025-05-01T16:00:00.000Z',
    };
    const personal = {
      ...property,
      id: 2,
      documentType: 'personal',
      documentCategory: 'tax',
      description: '',
      documentDate: null,
      tags: '',
      userEmail: 'jane@example.com',
      assignedUserId: 3,
    };
    const answer = investorDocumentsAnswer.parse({ documents: [property, personal] });
    expect(answer.documents.map((d) => d.documentType)).toEqual(['property', 'personal']);
    expect(investorDocumentsAnswer.safeParse({ documents: [{ ...personal, documentCategory: undefined }] }).success).toBe(
      false,
    );
    // The portal's 'New' badge reads it: an answer without it is not the contract's.
    expect(investorDocumentsAnswer.safeParse({ documents: [{ ...property, opened: undefined }] }).success).toBe(false);
    // The 'Corrected {date}' badge reads these (issue 21).
    expect(investorDocumentsAnswer.safeParse({ documents: [{ ...personal, correctedAt: undefined }] }).success).toBe(false);
    expect(investorDocumentsAnswer.parse({ documents: [{ ...property, version: 1, correctedAt: null }] }).documents[0]?.correctedAt).toBeNull();
  });
});

describe('read receipts', () => {
  it('pages 10 at a time and reads the not-opened filter from a query string', () => {
    expect(receiptDocumentsQuery.parse({})).toEqual({ page: 1, limit: 10, notOpened: false });
    expect(receiptPageQuery.parse({ page: '2', notOpened: 'true' })).toEqual({ page: 2, limit: 10, notOpened: true });
    expect(receiptDocumentParams.safeParse({ documentType: 'other', id: '1' }).success).toBe(false);
  });

  it('reminds of documents, of investors, or both, but not of nothing', () => {
    expect(remindBody.safeParse({ documents: [{ documentType: 'property', id: 1 }] }).success).toBe(true);
    expect(remindBody.safeParse({ userIds: [3] }).success).toBe(true);
    expect(remindBody.safeParse({}).success).toBe(false);
    expect(remindBody.safeParse({ documents: [] }).success).toBe(false);
    const many = Array.from({ length: maxReminderDocuments + 1 }, (_, i) => ({ documentType: 'personal', id: i + 1 }));
    expect(remindBody.safeParse({ documents: many }).success).toBe(false);
  });
});

describe('personal documents', () => {
  it('pages 10 at a time from page 1 by default and reads query strings', () => {
    expect(adminPersonalDocumentsQuery.parse({})).toEqual({ page: 1, limit: 10 });
    expect(adminPersonalDocumentsQuery.parse({ page: '3', limit: '25', search: ' tax ' })).toEqual({
      page: 3,
      limit: 25,
      search: 'tax',
    });
    expect(firstError(adminPersonalDocumentsQuery, { limit: '1000' })).toBe('Limit must be from 1 to 100.');
  });

  it('asks for both title and category on edit with the spec message', () => {
    expect(firstError(editPersonalDocumentBody, { documentId: 1, title: '', documentCategory: 'tax' })).toBe(
      'Please fill in both title and category.',
    );
    expect(firstError(editPersonalDocumentBody, { documentId: 1, title: 'T', documentCategory: 'misc' })).toBe(
      'Please fill in both title and category.',
    );
  });

  it('clears the document date with an empty string and refuses a malformed one', () => {
    const base = { documentId: 1, title: 'T', documentCategory: 'legal' };
    expect(editPersonalDocumentBody.parse({ ...base, documentDate: '' }).documentDate).toBeNull();
    expect(editPersonalDocumentBody.parse({ ...base, documentDate: '2025-03-31' }).documentDate).toBe('2025-03-31');
    expect(firstError(editPersonalDocumentBody, { ...base, documentDate: '03/31/2025' })).toBe(
      'Please enter a date as YYYY-MM-DD.',
    );
  });

  it('reads a multipart upload of a personal document', () => {
    const body = uploadPersonalDocumentBody.parse({
      userEmail: 'Jane@Example.com',
      documentCategory: 'tax',
      title: 'K-1 2025',
      emailNotification: 'on',
      uploadType: 'individual',
    });
    expect(body).toMatchObject({ userEmail: 'jane@example.com', emailNotification: true, uploadType: 'individual' });
  });
});

describe('property update', () => {
  const valid = {
    id: '5',
    name: 'Oak Court',
    type: 'residential',
    address: '1 Oak St',
    city: 'Pasadena',
    state: 'CA',
    zipCode: '91101',
    phone: '',
    website: 'www.oakcourt.example',
    status: 'active',
    latitude: '34.147785',
    longitude: '-118.144516',
    investorRelations: 'false',
  };

  it('reads the multipart form: id, flag and coordinates from strings', () => {
    const body = updatePropertyBody.parse(valid);
    expect(body).toMatchObject({
      id: 5,
      investorRelations: false,
      latitude: '34.147785',
      longitude: '-118.144516',
      website: 'https://www.oakcourt.example',
    });
  });

  it('reads the JSON form with numbers and booleans', () => {
    const body = updatePropertyBody.parse({ ...valid, id: 5, latitude: 34.1, longitude: -118, investorRelations: true });
    expect(body).toMatchObject({ latitude: '34.100000', longitude: '-118.000000', investorRelations: true });
  });

  it('asks for coordinates, and refuses ones that are not numbers or out of range', () => {
    expect(firstError(updatePropertyBody, { ...valid, latitude: '' })).toBe('Please enter both latitude and longitude.');
    expect(firstError(updatePropertyBody, { ...valid, longitude: 'west' })).toBe(
      'Longitude must be a number, like 34.147785.',
    );
    expect(firstError(updatePropertyBody, { ...valid, latitude: '91' })).toBe('Latitude must be between -90 and 90.');
  });

  it('takes back the nullable fields of a property answer, null clearing them', () => {
    const body = updatePropertyBody.parse({ ...valid, phone: null, website: null, image: null });
    expect(body).toMatchObject({ phone: '', website: '', image: '' });
    expect(updatePropertyBody.parse({ ...valid, website: '' }).website).toBe('');
    expect(updatePropertyBody.parse({ ...valid, image: undefined }).image).toBeUndefined();
  });

  it('asks for the required fields', () => {
    expect(firstError(updatePropertyBody, { ...valid, city: '' })).toBe('Please enter the city.');
    expect(firstError(updatePropertyBody, { ...valid, type: 'castle' })).toBe('Please choose a property type.');
    expect(firstError(updatePropertyBody, { ...valid, website: 'https://exa mple.com' })).toBe(
      'Please enter a valid website address, like https://example.com.',
    );
  });
});

describe('bulk user import', () => {
  it('refuses an empty CSV with the spec message', () => {
    expect(firstError(previewBulkImportBody, { csvData: [], defaultRole: 'user' })).toBe('No data found in CSV');
  });

  it('defaults to skipping duplicates, role user and no e-mails', () => {
    expect(bulkImportUsersBody.parse({ csvData: [{ email: 'a@example.com' }] })).toMatchObject({
      defaultRole: 'user',
      duplicateHandling: 'skip',
      sendWelcomeEmails: false,
      sendUpdateEmails: false,
    });
  });

  it('reads a row: default role, properties split on commas', () => {
    const row = bulkImportRow('everest_employee').parse({
      email: ' New@Example.com ',
      firstName: 'Ann',
      lastName: 'Lee',
      propertyAccess: 'Oak Court, Pine Plaza,,Oak Court',
    });
    expect(row).toMatchObject({
      email: 'new@example.com',
      role: 'everest_employee',
      propertyAccess: ['Oak Court', 'Pine Plaza'],
      entity: '',
    });
  });

  it('refuses a row without a name pair or entity, and one with an unknown role', () => {
    const schema = bulkImportRow('user');
    expect(firstError(schema, { email: 'a@example.com', firstName: 'Ann' })).toBe(
      'Either firstName and lastName, or entity, is required.',
    );
    expect(firstError(schema, { email: 'a@example.com', entity: 'Trust', role: 'boss' })).toBe(
      'Role must be user, everest_employee or administrator.',
    );
    expect(firstError(schema, { email: '', entity: 'Trust' })).toBe('Email is required.');
    expect(firstError(schema, { email: 'nope', entity: 'Trust' })).toBe('Email is not a valid email address.');
  });

  it('splits property access given as text or as a list', () => {
    expect(splitPropertyAccess(' A , B ')).toEqual(['A', 'B']);
    expect(splitPropertyAccess(['A', ' ', 'A'])).toEqual(['A']);
    expect(splitPropertyAccess(undefined)).toEqual([]);
  });
});

describe('second step', () => {
  const answer = (signature: string) => ({
    mfaToken: 't'.repeat(43),
    passkey: {
      id: 'abc',
      rawId: 'abc',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature },
    },
  });
  // base64url of n bytes without padding.
  const signatureOf = (bytes: number) => 'A'.repeat(Math.ceil((bytes * 4) / 3));

  it('takes a post-quantum passkey signature: ML-DSA-44 (2,420 bytes) and ML-DSA-87 (4,627 bytes)', () => {
    expect(loginVerifyBody.safeParse(answer(signatureOf(2420))).success).toBe(true);
    expect(loginVerifyBody.safeParse(answer(signatureOf(4627))).success).toBe(true);
  });

  it('refuses a signature far beyond any algorithm', () => {
    expect(loginVerifyBody.safeParse(answer(signatureOf(20_000))).success).toBe(false);
  });
});

describe('ids', () => {
  it('asks for each kind of id with its article', () => {
    expect(firstError(endShareBody, { shareId: 'x' })).toBe('Please choose a share.');
    expect(firstError(activityEntryParams, { id: 'x' })).toBe('Please choose an entry.');
    expect(firstError(z.object({ onBehalfOf }), { onBehalfOf: '-1' })).toBe('Please choose an investor.');
  });
});
