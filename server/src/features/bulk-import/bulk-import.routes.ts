import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { bulkImportTemplateFilename, importColumns, maxImportCsvBytes, maxImportRows } from '@everest/core/domain';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import { bulkImportTemplate } from './bulk-import-template';
import { bulkImportUsers, previewBulkImport } from './bulk-import.service';

/**
 * The JSON body limit of the two import calls: the rows of any 5 MB CSV, and no more. A CSV byte
 * becomes at most 3 bytes of JSON (a windows-1252 '€' or '—' is 3 bytes of UTF-8; a quote or a
 * backslash 2), and each row adds its keys, at most the longest row of empty cells.
 */
const jsonRowOverhead = JSON.stringify({ line: maxImportRows, ...Object.fromEntries(importColumns.map((c) => [c, ''])) }).length + 1;
export const maxImportJsonBytes = 3 * maxImportCsvBytes + maxImportRows * jsonRowOverhead;
export const importJsonPaths: ReadonlySet<string> = new Set([routes.previewBulkImport.path, routes.bulkImportUsers.path]);
export const importTooLarge = 'The import is too large: a CSV file of at most 5 MB can be imported at a time.';

/**
 * Bulk user import: POST preview-bulk-import and bulk-import-users (administrators, by the route
 * table), and the public CSV template. Answers hold investors' details: no-store.
 */
export function bulkImportRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  const privateAnswer = (ctx: Context) => ctx.set('Cache-Control', 'no-store');

  bind(router, routes.previewBulkImport, async ({ body, ctx }) => {
    privateAnswer(ctx);
    return previewBulkImport(ctx.state.em, config, body);
  });
  // New and changed accounts show in the user list at once; a new role ends that user's sessions, as in edit-user,
  // and new access to properties shows in the document lists.
  bind(
    router,
    routes.bulkImportUsers,
    async ({ body, user, ctx }) => {
      privateAnswer(ctx);
      return bulkImportUsers({ em: ctx.state.em, config, actor: user, clientAddress: ctx.ip }, body);
    },
    { effects: ['changes-users', 'queues-mail', 'ends-sessions', 'changes-shares', 'changes-documents'] },
  );

  bind(router, routes.bulkImportTemplate, async ({ ctx }) => {
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(bulkImportTemplateFilename);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = await bulkImportTemplate(ctx.state.em);
  });
}
