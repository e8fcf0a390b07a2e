import type Router from '@koa/router';
import { routes } from '@everest/core/contract';
import { documentCategories, documentCategoryLabels } from '@everest/core/domain';
import { HttpError } from '../../http/errors';
import { sendStoredFile } from '../../http/file-response';
import { bind, privateAnswer, type AnswerOf } from '../../http/route';
import { SerializedJson } from '../../http/serialized-json';
import { cacheTable } from '../../caches';
import type { Config } from '../../config';
import type { NotifiedCache } from '../../db/notified-cache';
import type { FileExistence } from '../files/file-existence';
import type { FileStore } from '../files/file-store';
import { contentTypeForDownload } from '../files/sniff';
import type { Context } from 'koa';
import type { AppState, SessionUser } from '../../http/state';
import { documentLinkTokens } from '../auth/session';
import { readingAs, readingAsKnown, type LiveShare, type LiveShares } from './document-policy';
import { findReadableVersion } from './document-versions';
import { auditDocumentRead, findReadableFile, listInvestorDocumentsJson, type PropertyDocumentCache, type ReadableFile } from './documents.service';

/** Each investor's document list as ready JSON, kept in memory on every instance (cacheTable.documentLists). */
export type DocumentListCache = NotifiedCache<SerializedJson<AnswerOf<typeof routes.investorDocuments>>>;

/** What the investor's reads use: the stored files, and the lists and shares kept in memory. */
export interface DocumentReadServices {
  config: Config;
  files: FileStore;
  fileExistence: FileExistence;
  documentLists: DocumentListCache;
  propertyDocuments: PropertyDocumentCache;
  liveShares: LiveShares;
}

export function documentsRoutes(router: Router<AppState>, { config, files, fileExistence, documentLists, propertyDocuments, liveShares }: DocumentReadServices): void {
  // Shared access: `onBehalfOf` reads through that investor's live share, checked on every call (kept
  // in the live shares cache, not in the list's: a revocation changes no row the list listens
  // to); a share's scope never changes, so its list is cached under the share, beside the
  // caller's own.
  const nothingShared = 'Nothing is shared with you by this investor.';
  const shares = { allowSharing: config.allowSharing, liveShares };
  const sharing = (ctx: Context & { state: AppState }, user: SessionUser, onBehalfOf: number | undefined, message?: string) =>
    readingAs(ctx.state.em, shares, user, onBehalfOf, message);
  // The caller's own list, or the one read through a share: under the caller's key, as the
  // share's scope is the delegate's view of the owner's documents.
  const listKey = (user: SessionUser, share: LiveShare | null) => cacheTable.documentLists.key(user) + (share ? `:share:${share.id}` : '');

  // Once in memory, the caller's own list and a delegate's view through a live share kept in
  // memory are answered below Koa (`hot`, see hotAnswers), after the same share check
  // (readingAsKnown, which readingAs asks first); anything it cannot decide or refuses, here.
  bind(
    router,
    routes.investorDocuments,
    async ({ user, ctx, query }) => {
      ctx.set('Cache-Control', privateAnswer);
      const share = await sharing(ctx, user, query.onBehalfOf, nothingShared);
      // Made on every investor's first look: brotli at quality 4 (see SerializedJson.bytes).
      return documentLists.get(listKey(user, share), async () =>
        SerializedJson.ofJson(await listInvestorDocumentsJson(ctx.state.em, user, fileExistence, propertyDocuments, share), 4),
      );
    },
    {
      hot: (user, query) => {
        const share = readingAsKnown(shares, user, query.onBehalfOf);
        return share === undefined ? undefined : documentLists.ready(listKey(user, share));
      },
    },
  );

  // Through a share, the categories it covers of the owner's personal documents.
  bind(router, routes.investorCategories, async ({ user, ctx, query }) => {
    const share = await sharing(ctx, user, query.onBehalfOf, nothingShared);
    const covered = (value: (typeof documentCategories)[number]) =>
      !share || share.personalScope === 'all' || (share.personalScope === 'categories' && share.categories.includes(value));
    return { categories: documentCategories.filter(covered).map((value) => ({ value, label: documentCategoryLabels[value] })) };
  });

  // Checked as the download checks it: a document (or version) the caller may not read answers the same 404.
  bind(router, routes.documentLink, async ({ user, body, ctx }) => {
    const share = await sharing(ctx, user, body.onBehalfOf);
    if (body.type === 'version') await findReadableVersion(ctx.state.em, user, body.id, share);
    else await findReadableFile(ctx.state.em, user, body.id, body.type, share);
    ctx.set('Cache-Control', 'no-store');
    const link = await documentLinkTokens(config).issue(
      { userId: user.id, tokenVersion: user.session.tokenVersion, sessionId: user.session.id, secondStep: user.session.secondStep },
      { type: body.type, id: body.id },
    );
    return { token: link.token, expiresAt: link.expiresAt.toISOString() };
  });

  // One answer for both download routes: the file with the spec's headers, audited before its first byte.
  const sendDocument = async (ctx: Context & { state: AppState }, user: SessionUser, file: ReadableFile, preview: boolean, share: LiveShare | null) => {
    const opened = await files.open(file.sha256);
    fileExistence.remember(file.sha256, opened !== null);
    if (!opened) {
      // Lists that still say this file exists are wrong now: drop them here at least.
      documentLists.clear();
      throw new HttpError(410, 'The file of this document is missing. Please contact Investor Relations.');
    }
    const action = preview ? 'preview' : 'download';
    await sendStoredFile(ctx, opened, {
      filename: file.filename,
      contentType: contentTypeForDownload(file.contentType, file.filename),
      disposition: preview ? 'inline' : 'attachment',
      onRead: ({ ranged }) => auditDocumentRead(ctx.state.em, user, file, action, ctx.ip, ranged, share),
    });
  };

  bind(router, routes.download, async ({ user, ctx, params, query }) => {
    const share = await sharing(ctx, user, query.onBehalfOf);
    await sendDocument(ctx, user, await findReadableFile(ctx.state.em, user, params.id, query.type, share), query.preview, share);
  });

  // An administrator's download of any version; for anyone else the current one only.
  bind(router, routes.downloadVersion, async ({ user, ctx, params, query }) => {
    const share = await sharing(ctx, user, query.onBehalfOf);
    await sendDocument(ctx, user, await findReadableVersion(ctx.state.em, user, params.versionId, share), query.preview, share);
  });
}
