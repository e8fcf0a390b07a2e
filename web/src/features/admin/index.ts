// The one public entry of the web package (`@everest/web/admin`): the desktop renderer
// mounts the very same panel.
export { AdminPanel, adminTabs, type AdminPanelProps, type AdminTab } from './components/admin-panel';
