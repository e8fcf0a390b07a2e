#!/usr/bin/env bash
# `pnpm bench` measures with programs from Debian's packages: wrk (load on the API), curl (large
# uploads and downloads) and Chromium (Lighthouse). Those missing are installed with apt, as
# .ci/setup installs Chromium for the tests; where that cannot be done, the bench stops here with
# one sentence naming them (sudo -n: never a password prompt that would hang).
set -euo pipefail
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
[[ -x "${CHROME_PATH:-/usr/bin/chromium}" ]] || missing+=(chromium)
(( ${#missing[@]} == 0 )) && exit 0

sudo_=""
[[ "$(id -u)" == 0 ]] || sudo_="sudo -n"
if command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the benchmarks…"
  if $sudo_ apt-get update -qq >/dev/null 2>&1 &&
    DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
    exit 0
  fi
fi
echo "pnpm bench needs ${missing[*]} from Debian's packages, and could not install them (apt-get as root or with sudo); install them and run it again." >&2
exit 1
