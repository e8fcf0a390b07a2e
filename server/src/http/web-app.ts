import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import { isPagePath } from '@everest/core/contract';
import { HttpError } from './errors';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

function decodedPath(urlPath: string): string {
  try {
    return decodeURIComponent(urlPath);
  } catch {
    throw new HttpError(400, 'The address is not valid.');
  }
}

/**
 * Serves the built web app from `distDir`: files as they are (hashed assets cached for a year),
 * the app shell for the spec's pages with 200, and the shell with 404 for any other path so
 * that the app's 404 page renders and crawlers see the right status.
 */
export function webApp(distDir: string): Middleware {
  const indexFile = path.join(distDir, 'index.html');
  let shell: string | null = null;
  const readShell = () => {
    shell ??= existsSync(indexFile)
      ? readFileSync(indexFile, 'utf8')
      : '<!doctype html><title>Everest Properties</title><p>The web app is not built yet: run <code>pnpm --filter @everest/web build</code>.</p>';
    return shell;
  };

  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    const relative = path.normalize(decodedPath(ctx.path));
    const file = path.join(distDir, relative);
    if (path.extname(file)) {
      if (!file.startsWith(distDir + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
        ctx.status = 404;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = 'Not found';
        return;
      }
      ctx.type = contentTypes[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      ctx.length = statSync(file).size;
      ctx.set(
        'Cache-Control',
        relative.startsWith(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      );
      ctx.body = createReadStream(file);
      return;
    }
    ctx.status = isPagePath(ctx.path) ? 200 : 404;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = readShell();
  };
}
