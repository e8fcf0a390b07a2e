import type Router from '@koa/router';
import type { Context } from 'koa';
import { routes } from '@everest/core/contract';
import { contentDisposition } from '../../http/file-response';
import { bind } from '../../http/route';
import type { AppState } from '../../http/state';
import type { Config } from '../../config';
import {
  documentReceipt,
  documentReceiptCsv,
  investorReceipt,
  investorReceiptCsv,
  listReceiptDocuments,
} from './read-receipts.service';
import { remindUnopened } from './reminders.service';

/**
 * Read receipts for administrators: who opened which document, and reminders to
 * those who have not. Administrators only, by the route table; answers are no-store, since
 * they name investors and their papers.
 */
export function readReceiptsRoutes(router: Router<AppState>, { config }: { config: Config }): void {
  const portalUrl = `${config.publicUrl}/investor-services`;
  const noStore = (ctx: Context) => ctx.set('Cache-Control', 'no-store');
  const sendCsv = (ctx: Context, { csv, filename }: { csv: string; filename: string }) => {
    noStore(ctx);
    ctx.set('Content-Disposition', contentDisposition('attachment', filename));
    ctx.type = 'text/csv; charset=utf-8';
    // A BOM, so that Excel reads the file as UTF-8 (names with accents).
    ctx.body = `\uFEFF${csv}`;
  };

  bind(router, routes.readReceiptDocuments, async ({ ctx, query }) => {
    noStore(ctx);
    return listReceiptDocuments(ctx.state.em, query);
  });
  bind(router, routes.readReceiptDocument, async ({ ctx, params, query }) => {
    noStore(ctx);
    return documentReceipt(ctx.state.em, params.documentType, params.id, query);
  });
  bind(router, routes.readReceiptDocumentCsv, async ({ ctx, params }) => {
    sendCsv(ctx, await documentReceiptCsv(ctx.state.em, params.documentType, params.id));
  });
  bind(router, routes.readReceiptInvestor, async ({ ctx, params, query }) => {
    noStore(ctx);
    return investorReceipt(ctx.state.em, params.userId, query);
  });
  bind(router, routes.readReceiptInvestorCsv, async ({ ctx, params }) => {
    sendCsv(ctx, await investorReceiptCsv(ctx.state.em, params.userId));
  });
  bind(
    router,
    routes.readReceiptRemind,
    async ({ ctx, user, body }) => {
      noStore(ctx);
      return remindUnopened({ em: ctx.state.em, actor: user, clientAddress: ctx.ip, portalUrl }, body);
    },
    { effects: ['queues-mail'] },
  );
}
