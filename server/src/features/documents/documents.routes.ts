import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { documentCategories, documentCategoryLabels } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { sendStoredFile } from '../../http/file-response';
import { bind } from '../../http/route';
import { SerializedJson } from '../../http/serialized-json';
import type { AppState } from '../../http/state';
import { cacheTable } from '../../caches';
import type { Services } from '../../services';
import { contentTypeForDownload } from '../files/sniff';
import { auditDocumentRead, findReadableFile, listInvestorDocuments } from './documents.service';

export function documentsRoutes(router: Router<AppState>, { files, fileExistence, documentLists }: Services): void {
  bind(router, routes.investorDocuments, async ({ user, ctx }) => {
    ctx.set('Cache-Control', 'private, no-store');
    return documentLists.get(cacheTable.documentLists.key(user), async () =>
      SerializedJson.of({ documents: await listInvestorDocuments(ctx.state.em, user, fileExistence) }),
    );
  });

  bind(router, routes.investorCategories, async () => ({
    categories: documentCategories.map((value) => ({ value, label: documentCategoryLabels[value] })),
  }));

  bind(router, routes.download, async ({ user, ctx, params, query }) => {
    const file = await findReadableFile(ctx.state.em, user, params.id, query.type);
    const opened = await files.open(file.sha256);
    fileExistence.remember(file.sha256, opened !== null);
    if (!opened) {
      // Lists that still say this file exists are wrong now: drop them here at least.
      documentLists.clear();
      throw new HttpError(410, 'The file of this document is missing. Please contact Investor Relations.');
    }
    const action = query.preview ? 'preview' : 'download';
    await sendStoredFile(ctx, opened, {
      filename: file.filename,
      contentType: contentTypeForDownload(file.contentType, file.filename),
      disposition: query.preview ? 'inline' : 'attachment',
      onRead: () => auditDocumentRead(ctx.state.em, user, file, action, ctx.ip),
    });
  });
}
