#!/usr/bin/env bats
# The driver table's citations (libnetpolicy/drivers/citations.tsv) without
# the kernel source: every driver of drivers.c is cited, netpolicy-drivers(7)
# shows exactly the table, and the checker (tests/lab/citations.py) finds
# definitions the way tests/lab/citations.bats relies on.

load ../helpers

CITE=$NP_SRCDIR/tests/lab/citations.py
TABLE=$NP_SRCDIR/libnetpolicy/drivers/citations.tsv
MAN=$NP_SRCDIR/man/netpolicy-drivers.7

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

@test "the citation table is well formed and cites every driver of the table and its files" {
	# the table's parts: drivers.c and drivers_more.c
	run python3 "$CITE" lint "$TABLE" "$NP_SRCDIR"/libnetpolicy/drivers/drivers*.c
	echo "$output"
	[ "$status" = 0 ]
	# and lint notices a driver without citations
	grep -v $'^igb\t' "$TABLE" >"$NP_TMP/t.tsv"
	run python3 "$CITE" lint "$NP_TMP/t.tsv" "$NP_SRCDIR/libnetpolicy/drivers/drivers.c"
	[ "$status" = 1 ]
	grep -q 'driver igb has no citation' <<<"$output"
	# ... in the second part too
	grep -v $'^qede\t' "$TABLE" >"$NP_TMP/t.tsv"
	run python3 "$CITE" lint "$NP_TMP/t.tsv" "$NP_SRCDIR"/libnetpolicy/drivers/drivers*.c
	[ "$status" = 1 ]
	grep -q 'drivers_more.c: driver qede has no citation' <<<"$output"
}

@test "netpolicy-drivers(7) lists exactly the citation table (update: citations.py man-update)" {
	cp "$MAN" "$NP_TMP/man.7"
	run python3 "$CITE" man-update "$TABLE" "$NP_TMP/man.7"
	[ "$status" = 0 ] || { diff -u "$MAN" "$NP_TMP/man.7"; false; }
	# a row more in the table is a page out of date
	printf 'igb\tplanted\tdrivers/net/x.c\tx_fn\t6.1\n' | cat "$TABLE" - >"$NP_TMP/t.tsv"
	run python3 "$CITE" man-update "$NP_TMP/t.tsv" "$NP_TMP/man.7"
	[ "$status" = 1 ]
	grep -q '^planted$' "$NP_TMP/man.7"
	# every driver is a subsection, and the page is installed
	for d in $(cut -f1 "$TABLE" | grep -v '^#' | grep . | sort -u); do
		grep -qx ".SS ${d//-/\\-}" "$MAN" || { echo "no .SS $d"; false; }
	done
	grep -q 'man/netpolicy-drivers.7' "$NP_SRCDIR/Makefile.am"
}

@test "rows that are not well formed are refused, one line each" {
	printf 'igb\tfact\tdrivers/net/a.c\tf\tsoon\n' >"$NP_TMP/t.tsv"
	printf 'igb\tfact\tdrivers/net/a.c\tf(x)\t6.1\n' >>"$NP_TMP/t.tsv"
	printf 'igb\tfact\n' >>"$NP_TMP/t.tsv"
	run python3 "$CITE" files "$NP_TMP/t.tsv" 6.1
	[ "$status" = 1 ]
	[ "$(grep -c '^FAIL' <<<"$output")" = 3 ]
	grep -q 'since "soon" is not' <<<"$output"
	grep -q 'function "f(x)" is not a C name' <<<"$output"
	grep -q '2 fields, not 7' <<<"$output"
}

@test "the checker finds definitions, not prototypes or calls, and quotes only in the body" {
	mkdir -p "$NP_TMP/src/drivers/net"
	cat >"$NP_TMP/src/drivers/net/a.c" <<'C'
static int kr_style(struct net_device *dev);
#define A_MAX (0x1FF * \
	       2)
static int
kr_style(struct net_device *dev,
	 struct ethtool_coalesce *ec)
{
	/* a comment with a brace } */
	if (ec->rx_coalesce_usecs >
	    A_MAX)
		return -EINVAL;
	return 0;
}

int caller(void)
{
	return only_called(1) + kr_style(NULL, NULL);
}

static const struct ethtool_ops a_ops = {
	.set_coalesce = kr_style,
};
C
	{
		printf 'x\tmulti-line K&R definition, quote over two lines\tdrivers/net/a.c\tkr_style\t6.1\t\tif (ec->rx_coalesce_usecs > A_MAX) return -EINVAL;\n'
		printf 'x\tmacro over two lines\tdrivers/net/a.c\tA_MAX\t6.1\t\t(0x1FF * 2)\n'
		printf 'x\tops object\tdrivers/net/a.c\ta_ops\t6.1\t\t.set_coalesce = kr_style,\n'
		printf 'x\tonly in 6.12: not looked for in 6.1\tdrivers/net/a.c\tnew_fn\t6.12\n'
		printf 'x\tonly until 5.10\tdrivers/net/a.c\told_fn\t<=6.1\t5.10\n'
	} >"$NP_TMP/ok.tsv"
	run python3 "$CITE" check "$NP_TMP/ok.tsv" 6.1 "$NP_TMP/src"
	echo "$output"
	[ "$status" = 0 ]
	[ "$output" = "6.1: 3 of 3 citations check" ]
	{
		printf 'x\tcalled, never defined\tdrivers/net/a.c\tonly_called\t6.1\n'
		printf 'x\tquote in another function\tdrivers/net/a.c\tkr_style\t6.1\t\treturn only_called(1)\n'
		printf 'x\tno such file\tdrivers/net/b.c\tkr_style\t6.1\n'
	} >"$NP_TMP/bad.tsv"
	run python3 "$CITE" check "$NP_TMP/bad.tsv" 6.1 "$NP_TMP/src"
	echo "$output"
	[ "$status" = 1 ]
	grep -q '^FAIL 6.1 x: drivers/net/a.c only_called(): not defined in the file' <<<"$output"
	grep -q '^FAIL 6.1 x: drivers/net/a.c kr_style(): quote "return only_called(1)" not in it' <<<"$output"
	grep -q '^FAIL 6.1 x: drivers/net/b.c kr_style(): no such file' <<<"$output"
	[ "$(grep -c '^FAIL' <<<"$output")" = 3 ]
}
