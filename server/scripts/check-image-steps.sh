#!/usr/bin/env bash
# The Dockerfile's stages without Docker (images cannot be pulled everywhere): the same install
# and build commands in a temp folder, the runtime assembled from the same paths, then the
# compiled server started from it as the image's CMD does, asked for readiness and a page, and
# stopped with SIGTERM (it must exit 0). What each stage copies is read from ../../Dockerfile's
# COPY lines (dockerfile-copies.ts); its RUN lines are repeated here: keep them in step.
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

# The Dockerfile's COPY lines of stage $1, applied to the folder $2; a `--from` stage's files are
# taken from the folder that stage was assembled in ($work/<stage>).
copy_stage() {
  local lines from src dest kind root
  lines="$("$repo/node_modules/.bin/tsx" "$repo/server/scripts/dockerfile-copies.ts" "$repo/Dockerfile" "$1")"
  while IFS=$'\t' read -r from src dest kind; do
    if [[ "$from" == - ]]; then root="$work/context"; else root="$work/$from"; fi
    [[ -e "$root/$src" ]] || { echo "the Dockerfile's stage $1 copies $src, which $root lacks" >&2; exit 1; }
    if [[ -d "$root/$src" ]]; then
      mkdir -p "$2/$dest" && cp -a "$root/$src/." "$2/$dest/"
    elif [[ "$kind" == folder ]]; then
      mkdir -p "$2/$dest" && cp -a "$root/$src" "$2/$dest/"
    else
      mkdir -p "$(dirname "$2/$dest")" && cp -a "$root/$src" "$2/$dest"
    fi
  done <<< "$lines"
}

echo "== build stage"
mkdir "$work/build"
copy_stage pnpm "$work/build"
(cd "$work/build" && pnpm install --frozen-lockfile --prefer-offline --reporter=silent)
copy_stage build "$work/build"
(cd "$work/build" && pnpm --filter @everest/web build >/dev/null && pnpm --filter @everest/server build)

echo "== prod-deps stage"
mkdir "$work/prod-deps"
copy_stage pnpm "$work/prod-deps"
(cd "$work/prod-deps" && pnpm install --frozen-lockfile --prod --filter '@everest/server...' --prefer-offline --reporter=silent)

echo "== runtime stage"
rt="$work/runtime"
mkdir -p "$rt" "$work/data"
copy_stage runtime "$rt"
if [[ -e "$rt/node_modules/tsx" || -e "$rt/server/node_modules/tsx" || -e "$rt/server/node_modules/esbuild" ]]; then
  echo "the runtime holds development tools (tsx or esbuild)" >&2
  exit 1
fi
echo "runtime: $(du -sh "$rt" | cut -f1)"

echo "== the image's CMD"
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
# The Node binary itself, as the image runs it: `node` on a pnpm script's PATH is the npm
# package's shell wrapper, which runs Node as its child, so SIGTERM would reach the wrapper only.
node_bin="$(node -p process.execPath)"
(cd "$rt" && exec env -i PATH="$PATH" NODE_ENV=production HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" \
  "$node_bin" --enable-source-maps server/dist/cli.js start) > "$work/server.log" 2>&1 &
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
