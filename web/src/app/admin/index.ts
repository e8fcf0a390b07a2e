// The one public entry of the web package (`@everest/web/admin`): the desktop renderer
// mounts the very same panel.
export { AdminPanel, adminTabs, type AdminPanelProps, type AdminTab } from './admin-panel';
// The desktop's Folder Drop asks with the same dialog before it e-mails: a mass e-mail cannot be taken back.
export {
  BatchEmailSummary,
  EmailConfirmDialog,
  recipientsTitle,
  type EmailConfirmDialogProps,
  type RecipientCount,
} from '../../components/admin/email-confirm-dialog';
export { emailingTexts } from '../../lib/admin/admin-messages';
// The desktop's Folder Drop matches K-1s by content with the browser's own reading, rule and review.
export { ContentReviewStep, type ContentReviewStepProps } from '../../features/bulk-upload/components/content-review-step';
export { confirmedBatch, matchByContent, type ContentReview, type MatchingInvestor } from '../../features/bulk-upload/lib/match-by-content';
export type { FolderFile } from '../../features/bulk-upload/lib/bulk-selection';
