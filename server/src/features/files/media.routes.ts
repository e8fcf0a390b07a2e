import Router from '@koa/router';
import { HttpError } from '../../http/errors';
import { respondWithFile } from '../../http/file-response';
import type { AppState } from '../../http/state';
import type { FileStore } from './file-store';
import { StoredFile } from './stored-file.entity';

/**
 * Public images (property photos) by content hash: `/media/<sha256>.<ext>`. Content-addressed,
 * so they are cached for good. An uploaded SVG is served in a sandbox so a script inside it
 * can never run as our site.
 */
export function mediaRoutes({ files }: { files: FileStore }): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/media/:name', async (ctx) => {
    const match = /^([a-f0-9]{64})\.[a-z0-9]+$/.exec(ctx.params.name ?? '');
    const stored = match?.[1] ? await ctx.state.em.findOne(StoredFile, { sha256: match[1] }) : null;
    const opened = stored?.contentType.startsWith('image/') ? await files.open(stored.sha256) : null;
    if (!stored || !opened) throw new HttpError(404, 'This image does not exist.');
    ctx.status = 200;
    ctx.type = stored.contentType;
    ctx.length = opened.size;
    ctx.set({
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox",
    });
    respondWithFile(ctx, opened, { start: 0, end: opened.size - 1 });
  });
  return router;
}
