#!/usr/bin/env bats
# Every fact of the driver table carries a citation
# (libnetpolicy/drivers/citations.tsv), and the citations are checked, not
# trusted: citations.sh fetches Debian's linux-source-6.1 (and -6.12 when apt
# knows it) into ${NP_LAB_DIR:-/var/cache/netpolicy-lab}/citations and
# finds each cited function in its file and the quote in the function.
# Needs root (apt-get download) and the Debian archive; skips without them
# unless CI=true, where not getting the source is a failure.  ~25 s the first
# time (download and extraction), ~2 s cached.

NP_SRCDIR=${NP_SRCDIR:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
CHECK=$NP_SRCDIR/tests/lab/citations.sh
TABLE=$NP_SRCDIR/libnetpolicy/drivers/citations.tsv

setup_file() {
	export CITE_SKIP= CITE_OUT CITE_RC
	if [ "$(id -u)" != 0 ]; then
		CITE_SKIP="needs root (apt-get download)"
		return 0
	fi
	CITE_OUT=$("$CHECK" "$TABLE" 2>&1)
	CITE_RC=$?
	if [ "$CITE_RC" = 77 ] && [ "${CI:-}" != true ]; then
		CITE_SKIP="linux-source-6.1 cannot be downloaded: $CITE_OUT"
	fi
}

setup() {
	[ -z "$CITE_SKIP" ] || skip "$CITE_SKIP"
	NP_TMP=$(mktemp -d)
}

teardown() { [ -z "${NP_TMP:-}" ] || rm -rf "$NP_TMP"; }

@test "every citation of the driver table checks against the kernel source" {
	echo "$CITE_OUT"
	[ "$CITE_RC" = 0 ]
	# both trees were read, not just one
	grep -q '^6\.1: [0-9]* of [0-9]* citations check$' <<<"$CITE_OUT"
}

# plant TABLE_ROW: the table with one row more, checked; its output in $output
plant() {
	cp "$TABLE" "$NP_TMP/cite.tsv"
	printf '%s\n' "$1" >>"$NP_TMP/cite.tsv"
	run "$CHECK" "$NP_TMP/cite.tsv"
}

@test "a citation of a function the file does not define fails, naming it" {
	plant "$(printf 'igb\tplanted\tdrivers/net/ethernet/intel/igb/igb_ethtool.c\tigb_set_coalesce_bogus\t<=6.1\t\t')"
	[ "$status" = 1 ]
	grep -qx 'FAIL 6.1 igb: drivers/net/ethernet/intel/igb/igb_ethtool.c igb_set_coalesce_bogus(): not defined in the file (.*)' <<<"$output"
	[ "$(grep -c '^FAIL' <<<"$output")" -ge 1 ]
	[ "$(grep '^FAIL' <<<"$output" | grep -vc bogus)" = 0 ]
}

@test "a quote that is not in the cited function fails; one that is elsewhere in the file too" {
	plant "$(printf 'igb\tplanted\tdrivers/net/ethernet/intel/igb/igb_ethtool.c\tigb_set_coalesce\t<=6.1\t\tIGB_MAX_ITR_USECS + 1')"
	[ "$status" = 1 ]
	grep -q '^FAIL 6.1 igb: .*igb_set_coalesce(): quote "IGB_MAX_ITR_USECS + 1" not in it' <<<"$output"
	# igb_get_coalesce's line, in the same file but not in igb_set_coalesce
	plant "$(printf 'igb\tplanted\tdrivers/net/ethernet/intel/igb/igb_ethtool.c\tigb_set_coalesce\t<=6.1\t\tec->rx_coalesce_usecs = adapter->rx_itr_setting;')"
	[ "$status" = 1 ]
	grep -q '^FAIL 6.1 igb: .*igb_set_coalesce(): quote ' <<<"$output"
}

@test "a fact since 6.2 is not looked for in 6.1, one until 6.1 not in 6.12" {
	# gve's names changed after 6.1: each row is checked in its own tree only
	grep -q $'^gve\t.*\t6.1\t"%s-ntfy-block.%d"$' "$TABLE"
	grep -q $'^gve\t.*\t6.12\t\t"gve-ntfy-blk%d@pci:%s"$' "$TABLE"
	plant "$(printf 'gve\tplanted\tdrivers/net/ethernet/google/gve/gve_main.c\tgve_alloc_notify_blocks\t<=6.1\t\t"gve-ntfy-blk%%d@pci:%%s"')"
	[ "$status" = 1 ]
	grep -q '^FAIL 6.1 gve: .*gve_alloc_notify_blocks(): quote' <<<"$output"
}
