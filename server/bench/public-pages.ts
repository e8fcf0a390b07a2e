import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { createApp } from '../src/app';
import { webDist } from '../src/server';
import type { BenchServer } from './bench-server';
import { load } from './load';

const seconds = 5;
const rounds = 3;
const connections = 20;
// What a browser sends: the server answers both with their brotli form.
const headers = { 'accept-encoding': 'br, gzip' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * A cached public page (rendered by the server, kept ready with its compressed forms) against a
 * static file of the same bytes (with the build's precompressed copies), served by the same
 * product server in the same run. Goal: the page reaches at least 0.8 of the file.
 *
 * The product is started a second time over the same services, with a web folder of its own: the
 * build's shell, the static file beside it, and the built render entry linked in, so that nothing
 * is written into web/dist.
 */
export async function benchPublicPages(server: BenchServer): Promise<void> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'everest-bench-web-'));
  const dist = path.join(folder, 'dist');
  mkdirSync(dist);
  for (const file of ['index.html', 'page-links.json']) copyFileSync(path.join(webDist, file), path.join(dist, file));
  symlinkSync(path.join(path.dirname(webDist), 'dist-ssr'), path.join(folder, 'dist-ssr'));
  const app = createApp(server.services, { webDist: dist }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => app.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;

  try {
    for (const page of ['/', '/properties']) {
      const html = await (await fetch(`${base}${page}`, { headers: { 'accept-encoding': 'identity' } })).text();
      if (!html.includes('"serverRendered":true')) throw new Error(`${page} was not rendered by the server: build the web app first.`);
      // fetch decodes the body; the header tells the bytes on the wire.
      const brSize = Number((await fetch(`${base}${page}`, { headers })).headers.get('content-length'));
      const staticName = `bench${page === '/' ? '-home' : page.replace(/\//g, '-')}.html`;
      const staticFile = path.join(dist, staticName);
      writeFileSync(staticFile, html);
      writeFileSync(`${staticFile}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      writeFileSync(`${staticFile}.gz`, gzipSync(html, { level: 9 }));

      await load(`${base}${page}`, { connections, seconds, headers }); // warm-up
      // Alternate the two and keep the median of each, so that a burst of other work on the
      // machine does not decide the ratio.
      const pageRuns: number[] = [];
      const fileRuns: number[] = [];
      for (let i = 0; i < rounds; i++) {
        pageRuns.push((await load(`${base}${page}`, { connections, seconds, headers })).requestsPerSecond);
        fileRuns.push((await load(`${base}/${staticName}`, { connections, seconds, headers })).requestsPerSecond);
      }
      const rendered = median(pageRuns);
      const file = median(fileRuns);
      const ratio = rendered / file;
      console.log(`GET ${page} (${html.length} bytes, ${brSize} as brotli; ${connections} connections, median of ${rounds} × ${seconds} s)`);
      console.log(`  cached page:  ${rendered.toFixed(0)} requests/s`);
      console.log(`  static file:  ${file.toFixed(0)} requests/s (the same bytes, precompressed)`);
      console.log(`  ratio:        ${ratio.toFixed(2)} (goal >= 0.80: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);
    }
  } finally {
    app.closeAllConnections();
    await new Promise<void>((resolve) => app.close(() => resolve()));
    rmSync(folder, { recursive: true, force: true });
  }
}
