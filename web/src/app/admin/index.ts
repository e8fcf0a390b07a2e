// The one public entry of the web package (`@everest/web/admin`): the desktop renderer
// mounts the very same panel.
export { AdminPanel, adminTabs, type AdminPanelProps, type AdminTab } from './admin-panel';
// Issue 32 case 7: the desktop's Folder Drop asks with the same dialog before it e-mails.
export {
  BatchEmailSummary,
  EmailConfirmDialog,
  recipientsTitle,
  type EmailConfirmDialogProps,
  type RecipientCount,
} from '../../components/admin/email-confirm-dialog';
export { emailingTexts } from '../../lib/admin/admin-messages';
