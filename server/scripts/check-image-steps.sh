#!/usr/bin/env bash
# The Dockerfile's stages without Docker (images cannot be pulled everywhere): the same install
# and build commands in a temp folder, the runtime assembled from the same paths, then the
# compiled server started from it as the image's CMD does, asked for readiness and a page, and
# stopped with SIGTERM (it must exit 0). Keep this in step with ../../Dockerfile.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd -P)"
work="$(mktemp -d "${TMPDIR:-/tmp}/everest-image-XXXXXX")"
chmod 755 "$work" # the embedded PostgreSQL's user must reach its programs (run as root)
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -TERM "$server_pid"; wait "$server_pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The build context: the checkout's files, less what .dockerignore and .gitignore leave out.
mkdir "$work/context"
(cd "$repo" && git ls-files -co --exclude-standard -z | grep -zv -e '^\.ci/' | xargs -0 tar -cf - ) | tar -xf - -C "$work/context"

manifests() {
  mkdir -p "$1"/{core,server,web,desktop,fixtures}
  for f in pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc core/package.json server/package.json web/package.json desktop/package.json fixtures/package.json; do
    cp "$work/context/$f" "$1/$f"
  done
}

echo "== build stage"
manifests "$work/build"
(cd "$work/build" && pnpm install --frozen-lockfile --prefer-offline --reporter=silent)
cp -a "$work/context/." "$work/build/"
(cd "$work/build" && pnpm --filter @everest/web build >/dev/null && pnpm --filter @everest/server build)

echo "== prod-deps stage"
manifests "$work/deps"
(cd "$work/deps" && pnpm install --frozen-lockfile --prod --filter '@everest/server...' --prefer-offline --reporter=silent)

echo "== runtime stage"
rt="$work/runtime"
mkdir -p "$rt/server" "$rt/web" "$rt/fixtures" "$work/data"
cp -a "$work/deps/node_modules" "$rt/node_modules"
cp -a "$work/deps/server/node_modules" "$rt/server/node_modules"
cp -a "$work/build/server/package.json" "$rt/server/package.json"
cp -a "$work/build/server/dist" "$rt/server/dist"
cp -a "$work/build/web/dist" "$rt/web/dist"
cp -a "$work/build/fixtures/files" "$rt/fixtures/files"
if [[ -e "$rt/node_modules/tsx" || -e "$rt/server/node_modules/tsx" || -e "$rt/server/node_modules/esbuild" ]]; then
  echo "the runtime holds development tools (tsx or esbuild)" >&2
  exit 1
fi
echo "runtime: $(du -sh "$rt" | cut -f1)"

echo "== the image's CMD"
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
(cd "$rt" && exec env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" \
  node --enable-source-maps server/dist/cli.js start) > "$work/server.log" 2>&1 &
server_pid=$!
node -e "
  const base = 'http://127.0.0.1:$port';
  const deadline = Date.now() + 120000;
  (async () => {
    for (;;) {
      const ready = await fetch(base + '/api/health/ready').then((r) => r.status, () => 0);
      if (ready === 200) break;
      if (Date.now() > deadline) { console.error('never ready'); process.exit(1); }
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = await fetch(base + '/');
    const html = await page.text();
    if (page.status !== 200 || !html.includes('<div id=\"root\"')) { console.error('no web app at /', page.status); process.exit(1); }
    console.log('ready, and / serves the web app');
  })();
" || { cat "$work/server.log"; exit 1; }
kill -TERM "$server_pid"
code=0; wait "$server_pid" || code=$?
server_pid=""
if [[ "$code" != 0 ]]; then cat "$work/server.log"; echo "the server exited $code on SIGTERM" >&2; exit 1; fi
if [[ -e "$work/data/postgres/pg/postmaster.pid" ]]; then echo "the embedded PostgreSQL was left running" >&2; exit 1; fi
echo "The image's steps work: built, assembled, started, ready, stopped with exit 0."
