import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { documentCategories, documentCategoryLabels } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { sendStoredFile } from '../../http/file-response';
import { bind, SerializedJson } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Services } from '../../services';
import { signedInUser } from '../auth/session';
import { contentTypeForDownload } from '../files/sniff';
import { auditDocumentRead, findReadableFile, listInvestorDocuments } from './documents.service';

export function documentsRoutes(router: Router<AppState>, { files, fileExistence, documentLists }: Services): void {
  bind(router, routes.investorDocuments, async ({ ctx }) => {
    ctx.set('Cache-Control', 'private, no-store');
    const user = signedInUser(ctx.state);
    // Administrators all see the same list; everyone else their own.
    const key = user.role === 'administrator' ? 'administrator' : `user:${user.id}`;
    const json = await documentLists.get(key, async () => ({
      documents: await listInvestorDocuments(ctx.state.em, user, fileExistence),
    }));
    return new SerializedJson(json);
  });

  bind(router, routes.investorCategories, async () => ({
    categories: documentCategories.map((value) => ({ value, label: documentCategoryLabels[value] })),
  }));

  bind(router, routes.download, async ({ ctx, params, query }) => {
    const user = signedInUser(ctx.state);
    const file = await findReadableFile(ctx.state.em, user, params.id, query.type);
    const size = await files.size(file.sha256);
    fileExistence.remember(file.sha256, size !== null);
    if (size === null) {
      // Lists that still say this file exists are wrong now: drop them here at least.
      documentLists.clear();
      throw new HttpError(410, 'The file of this document is missing. Please contact Investor Relations.');
    }
    sendStoredFile(ctx, files, {
      ...file,
      size,
      contentType: contentTypeForDownload(file.contentType, file.filename),
      disposition: query.preview ? 'inline' : 'attachment',
    });
    // Recorded once the file is on its way: a 404, 410 or 416 is not a read.
    if (ctx.status === 200 || (ctx.status === 206 && ctx.get('Content-Range').startsWith('bytes 0-'))) {
      await auditDocumentRead(ctx.state.em, user, file, query.preview ? 'preview' : 'download', ctx.ip);
    }
  });
}
