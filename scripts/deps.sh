#!/bin/sh
# deps.sh — install the Debian 12 packages vpmu's build and tests need.
#
# Idempotent: asks dpkg which packages are missing and runs apt-get only
# when some are, so `make` stays quiet on a prepared machine.  Installing
# needs root, or sudo without a password prompt when stdin is not a tty.
set -eu

PKGS="
build-essential pkg-config
libzydis-dev libdw-dev libelf-dev libunwind-dev zlib1g-dev libcmocka-dev
mandoc man-db cppcheck clang-format valgrind python3
clang libclang-rt-14-dev binutils
coreutils gzip bzip2 grep sed gawk tar findutils sqlite3 perl lua5.4 xz-utils file
"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

echo "deps.sh: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	SUDO=""
elif command -v sudo >/dev/null 2>&1; then
	SUDO="sudo"
else
	echo "deps.sh: missing packages:$missing; run as root or install sudo" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >&2
