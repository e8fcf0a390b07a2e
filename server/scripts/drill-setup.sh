#!/usr/bin/env bash
# What `pnpm drill` needs beyond `pnpm install`: Debian's sqlmap, which sql-injection.drill.ts
# runs. Installed when missing, as .ci/setup installs Chromium (apt-get, as root or through sudo
# without a password); otherwise the drill stops here at once with one sentence naming what is
# missing. Every apt-get call has a time limit, and so has the wait for dpkg's lock: a drill on a
# fresh machine never hangs on its setup.
set -euo pipefail

missing() {
  echo "pnpm drill needs sqlmap (Debian's sqlmap package) and $1: install sqlmap (apt-get install sqlmap) and run pnpm drill again." >&2
  exit 1
}

command -v sqlmap >/dev/null 2>&1 && exit 0
command -v apt-get >/dev/null 2>&1 || missing "it is not installed, and apt-get is not here to install it"
command -v timeout >/dev/null 2>&1 || missing "it is not installed, and timeout (coreutils) is not here to bound its installation"

sudo_=()
if [[ "$(id -u)" != 0 ]]; then
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || missing "it is not installed, and installing it needs root or sudo without a password"
  sudo_=(sudo -n)
fi

apt() {
  DEBIAN_FRONTEND=noninteractive timeout "$1" "${sudo_[@]}" apt-get -o DPkg::Lock::Timeout=60 -y -qq "${@:2}" >/dev/null 2>&1
}

echo "Installing sqlmap (Debian's package) for the SQL injection drill..."
# The package lists of a fresh machine may be missing or stale: update them once if needed.
if ! apt 300 install sqlmap; then
  apt 300 update || missing "it could not be installed: apt-get update failed or took more than 5 minutes"
  apt 300 install sqlmap || missing "it could not be installed: apt-get install sqlmap failed or took more than 5 minutes"
fi
command -v sqlmap >/dev/null 2>&1 || missing "apt-get installed it, but it is not on PATH"
echo "sqlmap $(timeout 30 sqlmap --version 2>/dev/null | head -n 1) installed."
