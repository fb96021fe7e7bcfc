#!/usr/bin/env bats
# The Debian package (debian/): built from a copy of the source tree with
# dpkg-buildpackage (nothing of this build reused), lintian clean, and
# installed into a throwaway root, where its netpolicy runs.  What it ships:
# the watch service disabled, the sample configuration as a conffile.

load ../helpers

setup_file() {
	for t in dpkg-buildpackage dh lintian; do
		command -v "$t" >/dev/null || return 0
	done
	export DEB_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/netpolicy-deb.XXXXXX")
	mkdir "$DEB_TMP/src"
	# the tree as it is, without build directories or a configured state
	tar -C "$NP_SRCDIR" --exclude=./.git --exclude='./build*' --exclude=./autom4te.cache \
		--exclude=./config.status --exclude=./config.log -cf - . | tar -C "$DEB_TMP/src" -xf -
	# the tests are the project's CI's (they need root): not run here
	(cd "$DEB_TMP/src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
		DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		dpkg-buildpackage -us -uc -b) >"$DEB_TMP/build.log" 2>&1 || echo failed >"$DEB_TMP/failed"
}

teardown_file() {
	[ -z "${DEB_TMP:-}" ] || rm -rf "$DEB_TMP"
}

setup() {
	[ -n "${DEB_TMP:-}" ] || skip "dpkg-dev, debhelper or lintian not installed (setup.sh check installs them)"
	if [ -e "$DEB_TMP/failed" ]; then
		tail -40 "$DEB_TMP/build.log"
		false
	fi
	DEB=$(ls "$DEB_TMP"/netpolicy_*.deb)
}

@test "dpkg-buildpackage -us -uc -b builds netpolicy and libnetpolicy-dev" {
	ls "$DEB_TMP"/netpolicy_*.deb "$DEB_TMP"/libnetpolicy-dev_*.deb
}

@test "lintian: no error and no warning" {
	run lintian --fail-on error,warning "$DEB_TMP"/netpolicy_*.changes
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "installed into a throwaway root, netpolicy --version runs from it" {
	dpkg -x "$DEB" "$DEB_TMP/root"
	run "$DEB_TMP/root/usr/sbin/netpolicy" --version
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$(dpkg-deb -f "$DEB" Version)"* ]]
	[ -f "$DEB_TMP/root/usr/share/man/man8/netpolicy.8.gz" ]
	[ -f "$DEB_TMP/root/usr/share/netpolicy/schema/show.json" ]
}

@test "the sample configuration is a conffile; netpolicy-watch.service and netpolicy-metrics.timer are shipped disabled" {
	dpkg-deb -e "$DEB" "$DEB_TMP/control"
	grep -qx /etc/netpolicy/netpolicy.conf "$DEB_TMP/control/conffiles"
	dpkg-deb --fsys-tarfile "$DEB" | tar -t | grep -qx ./lib/systemd/system/netpolicy-watch.service
	# the maintainer scripts enable (not start) netpolicy.service; the
	# watch service is enabled only where the admin had it enabled before
	# (debhelper's --no-enable), and nothing is started
	grep -q "deb-systemd-helper enable 'netpolicy.service'" "$DEB_TMP/control/postinst"
	grep -q "deb-systemd-helper debian-installed 'netpolicy-watch.service'" "$DEB_TMP/control/postinst"
	dpkg-deb --fsys-tarfile "$DEB" | tar -t | grep -qx ./lib/systemd/system/netpolicy-metrics.timer
	dpkg-deb --fsys-tarfile "$DEB" | tar -t | grep -qx ./lib/systemd/system/netpolicy-metrics.service
	grep -q "deb-systemd-helper debian-installed 'netpolicy-metrics.timer'" "$DEB_TMP/control/postinst"
	# nothing is started by an installation: the only invocation is the
	# upgrade's try-restart (below)
	! grep 'deb-systemd-invoke' "$DEB_TMP/control/postinst" | grep -qv 'try-restart' || false
}

# dh_installsystemd with --no-start and no --restart-after-upgrade stops the
# units in the preinst of an upgrade and starts nothing after it: an upgrade
# left watch and the metrics timer stopped.
@test "an upgrade keeps running units running: no stop in preinst/prerm, try-restart of watch and the timer after it" {
	dpkg-deb -e "$DEB" "$DEB_TMP/control"
	cat "$DEB_TMP/control/preinst" 2>/dev/null || true
	! grep -q 'deb-systemd-invoke stop' "$DEB_TMP/control/preinst" 2>/dev/null || false
	! grep -q 'deb-systemd-invoke stop' "$DEB_TMP/control/prerm" 2>/dev/null || false
	# try-restart: restarts only a running unit, only on upgrade ("$2" is
	# the old version), never on a first install
	grep -A4 'if \[ -n "\$2" \]' "$DEB_TMP/control/postinst" |
		grep -q "deb-systemd-invoke try-restart 'netpolicy-watch.service'"
	grep -A4 'if \[ -n "\$2" \]' "$DEB_TMP/control/postinst" |
		grep -q "deb-systemd-invoke try-restart 'netpolicy-metrics.timer'"
	# netpolicy.service is not run again by an upgrade
	! grep -q "deb-systemd-invoke.*'netpolicy.service'" "$DEB_TMP/control/postinst" || false
	# and watch stays stopped after exit 4 (netpolicy(8): incomplete rollback)
	dpkg-deb --fsys-tarfile "$DEB" | tar -xO ./lib/systemd/system/netpolicy-watch.service |
		grep -qx 'RestartPreventExitStatus=4'
}

@test "libnetpolicy-dev: the archive, its header and pkg-config file" {
	dpkg -x "$DEB_TMP"/libnetpolicy-dev_*.deb "$DEB_TMP/dev"
	ls "$DEB_TMP"/dev/usr/lib/*/libnetpolicy.a "$DEB_TMP"/dev/usr/lib/*/pkgconfig/libnetpolicy.pc
	[ -f "$DEB_TMP/dev/usr/include/netpolicy/netpolicy.h" ]
}
