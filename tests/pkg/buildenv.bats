#!/usr/bin/env bats
# What a package build in a clean chroot needs (tests/pkg/chroot-build.sh
# does that build; it is opt-in, not part of make check): debian/control's
# Build-Depends name every program make check runs, marked <!nocheck>, and
# the unit tests do not read the build machine (a buildd's chroot has no
# sysfs).

load ../helpers

build_depends() {	# the package names of Build-Depends, one a line, with their restrictions
	sed -n '/^Build-Depends:/,/^[A-Z]/p' "$NP_SRCDIR/debian/control" | sed '$d' |
		sed 's/^Build-Depends://' | tr ',' '\n' | sed 's/^[[:space:]]*//;s/[[:space:]]*$//' | grep .
}

@test "Build-Depends: what make check runs, <!nocheck> (bats, jq, python3-jsonschema, strace, bash-completion)" {
	build_depends
	for p in bats jq python3-jsonschema strace bash-completion python3 procps; do
		build_depends | grep -qx "$p <!nocheck>" || { echo "missing: $p <!nocheck>"; false; }
	done
	# the tree's tests run these; each comes from one of the packages above
	grep -q 'python3' "$NP_SRCDIR/tests/json_schema.py"
}

@test "the unit tests pass without a sysfs (a build chroot): the live topology test skips, saying why" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (a mount namespace without /sys)"
	command -v unshare >/dev/null || skip "unshare not installed (util-linux)"
	t=$NP_BUILDDIR/tests/unit/test_topology
	[ -x "$t" ] || skip "test_topology not built"
	run unshare -m sh -c "mount -t tmpfs none /sys && cd '$NP_BUILDDIR' && '$t'"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^ok [0-9]* # SKIP live: no sysfs' <<<"$output"
	! grep -q '^not ok' <<<"$output" || false
}

@test "tests/pkg/chroot-build.sh: the opt-in clean-chroot build is there and parses" {
	[ -x "$NP_SRCDIR/tests/pkg/chroot-build.sh" ]
	bash -n "$NP_SRCDIR/tests/pkg/chroot-build.sh"
	# builds as an unprivileged user from the Build-Depends alone
	grep -q 'apt-get build-dep' "$NP_SRCDIR/tests/pkg/chroot-build.sh"
	grep -q 'debootstrap --variant=buildd' "$NP_SRCDIR/tests/pkg/chroot-build.sh"
}

# debian/copyright said LGPL-2.1-or-later for every file; four are
# GPL-2.0-or-later (their SPDX line).
@test "debian/copyright: every file's SPDX licence is the one its stanza gives" {
	cd "$NP_SRCDIR"
	grep -rlE --exclude-dir=.git --exclude-dir='build*' '^(#|/\*|//) SPDX-License-Identifier: GPL-2.0-or-later' . |
		sed 's|^\./||' | sort >"$BATS_TEST_TMPDIR/gpl"
	[ -s "$BATS_TEST_TMPDIR/gpl" ]
	# the files the GPL stanza lists are exactly those
	awk '/^Files:/ { n = 0 } /^Files:|^  +[^ ]/ { for (i = 1; i <= NF; i++) if ($i != "Files:") l[n++] = $i }
		/^License: GPL-2.0-or-later$/ { for (i = 0; i < n; i++) print l[i]; n = 0 }' debian/copyright |
		sort >"$BATS_TEST_TMPDIR/listed"
	diff "$BATS_TEST_TMPDIR/gpl" "$BATS_TEST_TMPDIR/listed"
	grep -q '^License: GPL-2.0-or-later$' debian/copyright
	grep -q '/usr/share/common-licenses/GPL-2' debian/copyright
}
