import { AuditEvent } from '../features/audit/audit-event.entity';
import { EndedSession } from '../features/auth/ended-session.entity';
import { PasswordResetToken } from '../features/auth/password-reset-token.entity';
import { SignedInSession } from '../features/auth/sessions.entity';
import { SignInCode } from '../features/auth/sign-in-code.entity';
import { Passkey, PasskeyChallenge } from '../features/auth/second-step/passkey.entity';
import { BackupCode, SecondStep, SecondStepChallenge } from '../features/auth/second-step/second-step.entity';
import { CaptchaSolution } from '../features/captcha/captcha-solution.entity';
import { ContactMessage } from '../features/contact/contact-message.entity';
import { PropertyDocument } from '../features/property-documents/property-document.entity';
import { PersonalDocument } from '../features/personal-documents/personal-document.entity';
import { DocumentVersion } from '../features/document-access/document-version.entity';
import { StoredFile } from '../features/files/stored-file.entity';
import { OutboxMessage } from '../features/mail/outbox-message.entity';
import { OutboxTemplate } from '../features/mail/outbox-template.entity';
import { Property } from '../features/properties/property.entity';
import { DocumentRead } from '../features/read-receipts/document-read.entity';
import { DocumentReminder } from '../features/read-receipts/document-reminder.entity';
import { RateLimitBudget } from '../features/rate-limit/rate-limit-budget.entity';
import { RateLimitCounter } from '../features/rate-limit/rate-limit-counter.entity';
import { Share, ShareProperty } from '../features/shares/share.entity';
import { EmailChange } from '../features/users/email-change.entity';
import { InvestorIdentifier } from '../features/users/investor-identifier.entity';
import { PropertyAccess } from '../features/users/property-access.entity';
import { User } from '../features/users/user.entity';
import { BackupAlert, BackupRun } from '../features/backups/backup-run.entity';

/** The whole data model; the migrations in ./migrations create exactly this. */
export const entities = [
  User,
  Property,
  PropertyAccess,
  StoredFile,
  PropertyDocument,
  PersonalDocument,
  PasswordResetToken,
  EndedSession,
  SignedInSession,
  ContactMessage,
  OutboxTemplate,
  OutboxMessage,
  AuditEvent,
  RateLimitCounter,
  RateLimitBudget,
  CaptchaSolution,
  SecondStep,
  BackupCode,
  SecondStepChallenge,
  SignInCode,
  Passkey,
  PasskeyChallenge,
  DocumentRead,
  DocumentReminder,
  DocumentVersion,
  EmailChange,
  Share,
  ShareProperty,
  BackupRun,
  BackupAlert,
  InvestorIdentifier,
];
