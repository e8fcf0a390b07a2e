export * from './routes';
export * from './paths';
export * from './pages';
export * from './schemas/common';
export * from './schemas/health';
export * from './schemas/property';
export * from './schemas/contact';
export * from './schemas/auth';
export * from './schemas/user';
export * from './schemas/document';
export * from './schemas/personal-document';
export * from './schemas/bulk-import';
export * from './schemas/owner-proof';
export * from './schemas/second-step';
export * from './schemas/read-receipts';
export * from './schemas/sessions';
export * from './schemas/shares';
export {
  calendarDate,
  documentYear,
  emailAddress,
  idOf,
  optionalText,
  quarter,
  requiredText,
  timestamp,
  wholeNumber,
  yesNo,
} from './schemas/fields';
export * from './schemas/activity';
export * from './schemas/system';
