#!/bin/bash
# Build the Debian package in a clean Debian chroot from its own
# Build-Depends, with its tests (make check), as a buildd would: a fresh
# debootstrap (--variant=buildd), the build dependencies debian/control
# names and nothing else, dpkg-buildpackage as an unprivileged user (so the
# suites that need root, namespaces or QEMU skip, each saying why), then the
# built packages installed in the same chroot with apt and run from there.
#
#   tests/pkg/chroot-build.sh [SUITE]       (SUITE: bookworm by default)
#
# Opt-in: not part of make check (it downloads a Debian base system and takes
# 10 minutes or more).  Needs root, debootstrap and the Debian archive
# (debootstrap's default mirror, or MIRROR=URL).  KEEP=1 keeps the chroot
# (its path is printed); the build log is left in $OUT (default: a new
# directory under /var/tmp), with the built .deb files.
set -euo pipefail

suite=${1:-bookworm}
src=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { echo "chroot-build: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "chroot-build: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

OUT=${OUT:-$(mktemp -d /var/tmp/netpolicy-chroot-out.XXXXXX)}
mkdir -p "$OUT"
root=$(mktemp -d /var/tmp/netpolicy-chroot.XXXXXX)
chmod 0755 "$root"	# mktemp's 0700 would be the chroot's / for every user
mounted=()

cleanup() {
	local m
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[i]}" 2>/dev/null || true
	done
	if [ "${KEEP:-0}" = 1 ]; then
		echo "chroot-build: chroot kept in $root" >&2
	else
		rm -rf --one-file-system "$root"
	fi
}
trap cleanup EXIT

step() { printf '\n== %s: %s\n' "$(date -u +%H:%M:%S)" "$*"; }
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

step "debootstrap --variant=buildd $suite"
# shellcheck disable=SC2086
debootstrap --variant=buildd "$suite" "$root" ${MIRROR:-} >"$OUT/debootstrap.log" 2>&1 ||
	{ tail -20 "$OUT/debootstrap.log"; exit 1; }
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" && mounted+=("$root/dev/pts")
# no /sys: a package build must not read the build machine's devices

step "the source tree, without build directories or git"
mkdir -p "$root/build/src"
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./autom4te.cache \
	--exclude=./config.status --exclude=./config.log -cf - . | tar -C "$root/build/src" -xf -

step "Build-Depends of debian/control (apt-get build-dep), nothing else"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -qq --no-install-recommends \
	/build/src >"$OUT/build-dep.log" 2>&1 || { tail -20 "$OUT/build-dep.log"; exit 1; }

step "dpkg-buildpackage -us -uc -b as an unprivileged user, with the tests"
in_root useradd --create-home --shell /bin/bash builder
in_root chown -R builder: /build
set +e
in_root su builder -c "cd /build/src && DEB_BUILD_OPTIONS=parallel=$(nproc) dpkg-buildpackage -us -uc -b" \
	>"$OUT/build.log" 2>&1
rc=$?
set -e
# the test summary of every suite make check ran
grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$OUT/build.log" | tail -7 || true
grep -E '^(FAIL|ERROR):' "$OUT/build.log" | head -40 || true
if [ "$rc" -ne 0 ]; then
	tail -40 "$OUT/build.log"
	echo "chroot-build: dpkg-buildpackage failed (exit $rc); log in $OUT/build.log" >&2
	exit 1
fi
echo "skipped, with their reasons:"
grep -E '^SKIP:' "$OUT/build.log" | sed 's/^SKIP: //' | sort | uniq -c | sort -rn | head -20 || true

step "apt-get install of the built packages, in the same chroot"
cp "$root"/build/*.deb "$OUT/"
in_root sh -c 'cd /build && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./netpolicy_*.deb ./libnetpolicy-dev_*.deb' \
	>"$OUT/install.log" 2>&1 || { tail -20 "$OUT/install.log"; exit 1; }
in_root netpolicy --version
in_root sh -c 'pkg-config --modversion libnetpolicy'
in_root dpkg-query -W -f='${Package} ${Version} ${Status}\n' netpolicy libnetpolicy-dev
step "done: packages and logs in $OUT"
