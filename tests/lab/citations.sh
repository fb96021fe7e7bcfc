#!/bin/bash
# citations.sh [TABLE] - check the driver table's citations (TABLE, default
# libnetpolicy/drivers/citations.tsv; tests/lab/citations.py) against
# Debian's linux-source-6.1 and, when apt knows it, linux-source-6.12.
#
# The debs are fetched with `apt-get download` into
# ${NP_LAB_DIR:-/var/cache/netpolicy-lab}/citations/debs (apart from lab.sh's
# debs/, which its build empties of sources) and kept; only the cited files
# are extracted, once per deb version, into citations/src-VERSION/.
# Exit 0 all check, 1 a citation fails (one line each), 77 linux-source-6.1
# cannot be had (no apt, no network), 2 usage.
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
TABLE=${1:-$HERE/../../libnetpolicy/drivers/citations.tsv}
CITE=$HERE/citations.py
DIR=${NP_LAB_DIR:-/var/cache/netpolicy-lab}/citations

log() { printf 'citations: %s\n' "$*" >&2; }

[ -r "$TABLE" ] || { log "cannot read $TABLE"; exit 2; }

apt_known() { command -v apt-cache >/dev/null && apt-cache show "$1" >/dev/null 2>&1; }

# fetch PKG: the cached .deb of PKG, else the candidate apt-get downloads
# (lab.sh's fetch: a cache that works keeps working when the archive moves on)
fetch() {
	local pkg=$1 f ver
	f=$(ls "$DIR/debs/${pkg}_"*.deb 2>/dev/null | sort -V | tail -1)
	[ -n "$f" ] && { echo "$f"; return 0; }
	command -v apt-get >/dev/null || return 1
	apt_known "$pkg" || apt-get update -qq >/dev/null 2>&1
	ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] || return 1
	mkdir -p "$DIR/debs" && chown _apt "$DIR/debs" 2>/dev/null
	(cd "$DIR/debs" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) || return 1
	ls "$DIR/debs/${pkg}_"*"${ver#*:}_"*.deb 2>/dev/null | head -1
}

# extract DEB MM: the tree of the cited files of MM's rows, extracting what
# no earlier run tried (a member the tarball lacks is the checker's to report)
extract() {
	local deb=$1 mm=$2 src want missing
	src=$DIR/src-$(dpkg-deb -f "$deb" Version) want=$DIR/want.$$
	mkdir -p "$src" || return 1
	python3 "$CITE" files "$TABLE" "$mm" >"$want" || { rm -f "$want"; return 1; }
	touch "$src/.tried"
	missing=$(sort -u "$want" | comm -23 - <(sort -u "$src/.tried"))
	if [ -n "$missing" ]; then
		log "extracting $(echo "$missing" | wc -l) files from $(basename "$deb")"
		# tar fails on a member the archive lacks but extracts the others
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$mm.tar.xz" |
			tar -xJ -C "$src" --strip-components=1 \
				$(echo "$missing" | sed "s#^#linux-source-$mm/#") 2>/dev/null
		sort -u "$src/.tried" - <<<"$missing" >"$src/.tried.new" && mv "$src/.tried.new" "$src/.tried"
	fi
	rm -f "$want"
	echo "$src"
}

rc=0 checked=0
for mm in 6.1 6.12; do
	if ! deb=$(fetch "linux-source-$mm"); then
		[ "$mm" = 6.1 ] && { log "cannot download linux-source-6.1"; exit 77; }
		log "no linux-source-$mm (setup.sh adds bookworm-backports): facts since 6.2 unchecked"
		continue
	fi
	src=$(extract "$deb" "$mm") || { log "cannot extract from $deb"; exit 1; }
	python3 "$CITE" check "$TABLE" "$mm" "$src" || rc=1
	checked=$((checked + 1))
done
exit $rc
