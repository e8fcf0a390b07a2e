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
