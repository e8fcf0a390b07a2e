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
import { documentLinkTokens } from '../auth/session';
import { auditDocumentRead, findReadableFile, listInvestorDocuments } from './documents.service';

export function documentsRoutes(router: Router<AppState>, { config, files, fileExistence, documentLists }: Services): void {
  bind(router, routes.investorDocuments, async ({ user, ctx }) => {
    ctx.set('Cache-Control', 'private, no-store');
    return documentLists.get(cacheTable.documentLists.key(user), async () =>
      SerializedJson.of({ documents: await listInvestorDocuments(ctx.state.em, user, fileExistence) }),
    );
  });

  bind(router, routes.investorCategories, async () => ({
    categories: documentCategories.map((value) => ({ value, label: documentCategoryLabels[value] })),
  }));

  // Checked as the download checks it: a document the caller may not read answers the same 404.
  bind(router, routes.documentLink, async ({ user, body, ctx }) => {
    await findReadableFile(ctx.state.em, user, body.id, body.type);
    ctx.set('Cache-Control', 'no-store');
    const link = await documentLinkTokens(config).issue(
      { userId: user.id, tokenVersion: user.session.tokenVersion, sessionId: user.session.id },
      { type: body.type, id: body.id },
    );
    return { token: link.token, expiresAt: link.expiresAt.toISOString() };
  });

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
