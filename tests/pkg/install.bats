#!/usr/bin/env bats
# What a packager and a library user get from `make install`: the header
# where pkg-config says, a .pc that builds and links a consumer of the static
# archive, only the public API global in that archive, version macros and
# np_version(), systemd units and udev rule in their directories with the
# paths substituted, and the link-up hooks.

load ../helpers

setup_file() {
	export PKG_DEST=$(mktemp -d "${BATS_TMPDIR:-/tmp}/netpolicy-install.XXXXXX")
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$NP_BUILDDIR" \
		install DESTDIR="$PKG_DEST" >/dev/null
}

teardown_file() {
	rm -rf "$PKG_DEST"
}

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

mkvar() {	# a variable of the build's Makefile
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$NP_BUILDDIR" \
		-f Makefile -f - np-print-var V="$1" <<<'np-print-var: ; @echo $($(V))'
}

pc() {	# pkg-config on the staged installation
	PKG_CONFIG_SYSROOT_DIR=$PKG_DEST PKG_CONFIG_PATH=$PKG_DEST$(mkvar libdir)/pkgconfig \
		pkg-config "$@" libnetpolicy
}

# A consumer with a symbol of its own named like one of the library's
# internals: with internals global it would not link (multiple definition).
consumer() {
	cat >"$NP_TMP/consumer.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <netpolicy/netpolicy.h>

int np_err(void);
int np_err(void) { return 42; }	/* the library has an internal np_err too */

int main(void)
{
	struct np_ctx *ctx = NULL;
	struct np_error *err = np_error_new();

	if (strcmp(np_version(), NP_VERSION_STRING) || np_err() != 42)
		return 1;
	if (!err || np_ctx_new(&ctx, err) < 0)
		return 2;
	np_ctx_free(ctx);
	np_error_free(err);
	printf("%s %d.%d.%d\n", np_version(), NP_VERSION_MAJOR, NP_VERSION_MINOR, NP_VERSION_PATCH);
	return 0;
}
C
}

@test "the header is installed as \$(includedir)/netpolicy/netpolicy.h" {
	inc=$PKG_DEST$(mkvar includedir)
	[ -f "$inc/netpolicy/netpolicy.h" ]
	[ -f "$inc/netpolicy/version.h" ]
	[ ! -e "$inc/include" ]
}

@test "every installed header compiles on its own, in C and C++, and the umbrella includes them all" {
	inc=$PKG_DEST$(mkvar includedir)
	n=0
	for h in "$inc"/netpolicy/*.h; do
		echo "#include <netpolicy/${h##*/}>" >"$NP_TMP/one.c"
		cc -fsyntax-only -Wall -Wextra -Werror -I"$inc" "$NP_TMP/one.c"
		c++ -fsyntax-only -Wall -Werror -I"$inc" -x c++ "$NP_TMP/one.c"
		n=$((n + 1))
		case ${h##*/} in netpolicy.h | version.h) continue ;; esac
		grep -qx "#include <netpolicy/${h##*/}>" "$inc/netpolicy/netpolicy.h"
	done
	[ "$n" -ge 10 ]
}

@test "pkg-config --cflags --libs builds and links a consumer of the static library" {
	consumer
	run cc -o "$NP_TMP/consumer" "$NP_TMP/consumer.c" $(pc --cflags --libs)
	echo "$output"
	[ "$status" -eq 0 ]
	run "$NP_TMP/consumer"
	[ "$status" -eq 0 ]
	v=$(mkvar PACKAGE_VERSION)
	[ "$output" = "$v $v" ]
}

@test "pkg-config --static --cflags --libs links it too" {
	consumer
	run cc -o "$NP_TMP/consumer" "$NP_TMP/consumer.c" $(pc --static --cflags --libs)
	echo "$output"
	[ "$status" -eq 0 ]
	"$NP_TMP/consumer"
}

@test "the installed archive links into a shared object (position-independent code)" {
	consumer
	lib=$PKG_DEST$(mkvar libdir)/libnetpolicy.a
	run cc -shared -fPIC -o "$NP_TMP/plugin.so" "$NP_TMP/consumer.c" $(pc --cflags) \
		-Wl,--whole-archive "$lib" -Wl,--no-whole-archive $(pc --static --libs | sed 's/-lnetpolicy//')
	echo "$output"
	[ "$status" -eq 0 ]
	nm -D --defined-only "$NP_TMP/plugin.so" | grep -q ' np_version$'
}

@test "the sample configuration is installed, names no device, and is not installed over an admin's" {
	conf=$PKG_DEST$(mkvar confdir)/netpolicy.conf
	cmp "$NP_SRCDIR/contrib/netpolicy.conf" "$conf"
	[ -z "$(grep -v '^#' "$conf" | grep .)" ]
	"$NETPOLICY" --state-dir "$NP_TMP/state" --config "$conf" plan
	# an admin's file stays as it is
	mkdir -p "$NP_TMP/etc"
	echo '[eth9]' >"$NP_TMP/etc/netpolicy.conf"
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$NP_BUILDDIR" \
		install-data-local DESTDIR= confdir="$NP_TMP/etc" >/dev/null
	[ "$(cat "$NP_TMP/etc/netpolicy.conf")" = "[eth9]" ]
}

@test "only the public API is global in the installed archive" {
	lib=$PKG_DEST$(mkvar libdir)/libnetpolicy.a
	nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort >"$NP_TMP/global"
	cat "$NP_SRCDIR"/include/netpolicy/*.h | grep -o 'NP_EXPORT [^(]*np_[a-z0-9_]*(' |
		grep -o 'np_[a-z0-9_]*($' | tr -d '(' | sort -u >"$NP_TMP/api"
	[ -s "$NP_TMP/api" ]
	diff -u "$NP_TMP/api" "$NP_TMP/global"
}

@test "the version macros and np_version() agree with configure" {
	h=$PKG_DEST$(mkvar includedir)/netpolicy/version.h
	v=$(mkvar PACKAGE_VERSION)
	maj=$(awk '/define NP_VERSION_MAJOR/ { print $3 }' "$h")
	min=$(awk '/define NP_VERSION_MINOR/ { print $3 }' "$h")
	pat=$(awk '/define NP_VERSION_PATCH/ { print $3 }' "$h")
	[ "$maj.$min.$pat" = "$v" ]
}

@test "units, udev rule and hooks are installed where configure says, paths substituted" {
	unitdir=$PKG_DEST$(mkvar systemdsystemunitdir)
	rulesdir=$PKG_DEST$(mkvar udevrulesdir)
	sbindir=$(mkvar sbindir)
	confdir=$(mkvar confdir)
	[ -f "$unitdir/netpolicy.service" ]
	[ -f "$unitdir/netpolicy@.service" ]
	[ -f "$unitdir/netpolicy-watch.service" ]
	[ -f "$rulesdir/99-netpolicy.rules" ]
	sysconf=$PKG_DEST$(mkvar hooksysconfdir)
	[ -x "$sysconf/network/if-up.d/netpolicy" ]
	[ -x "$sysconf/NetworkManager/dispatcher.d/90-netpolicy" ]
	[ -x "$sysconf/networkd-dispatcher/carrier.d/netpolicy" ]
	! grep -n '@[a-zA-Z_]*@' "$unitdir"/netpolicy*.service "$rulesdir/99-netpolicy.rules" \
		"$sysconf/network/if-up.d/netpolicy" || false
	grep -q "^ExecStart=$sbindir/netpolicy plan\$" "$unitdir/netpolicy.service"
	grep -q "^ExecStart=$sbindir/netpolicy --quiet plan %I\$" "$unitdir/netpolicy@.service"
	grep -q "^ExecStart=$sbindir/netpolicy watch\$" "$unitdir/netpolicy-watch.service"
	grep -q "^ConditionPathExists=$confdir/netpolicy.conf\$" "$unitdir/netpolicy.service"
}

@test "netpolicy@.service: an interface name with '-' reaches netpolicy unescaped" {
	command -v systemd-escape >/dev/null || skip "systemd-escape not installed"
	unit=$PKG_DEST$(mkvar systemdsystemunitdir)/netpolicy@.service
	inst=$(systemd-escape br-lan)		# what 99-netpolicy.rules' PROGRAM gives
	[ "$inst" = 'br\x2dlan' ]
	# %i (escaped) names the device unit, as systemd names it from the path
	[ "sys-subsystem-net-devices-$inst.device" = \
		"$(systemd-escape --path --suffix=device /sys/subsystem/net/devices/br-lan)" ]
	grep -q '^BindsTo=sys-subsystem-net-devices-%i\.device$' "$unit"
	# %I (unescaped) is the argument
	[ "$(systemd-escape --unescape "$inst")" = br-lan ]
	grep -q '^ExecStart=.* plan %I$' "$unit"
	grep -q 'PROGRAM=".*systemd-escape \$name"' "$PKG_DEST$(mkvar udevrulesdir)/99-netpolicy.rules"
	grep -q 'SYSTEMD_WANTS}+="netpolicy@%c.service"' "$PKG_DEST$(mkvar udevrulesdir)/99-netpolicy.rules"
}

@test "systemd-analyze verify: the installed units are clean" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed (package systemd)"
	unitdir=$PKG_DEST$(mkvar systemdsystemunitdir)
	sbindir=$(mkvar sbindir)
	mkdir "$NP_TMP/units"
	# the binary is only staged: point ExecStart= at the staged copy
	for u in netpolicy.service netpolicy@.service netpolicy-watch.service netpolicy-metrics.service; do
		sed "s|$sbindir/|$PKG_DEST$sbindir/|" "$unitdir/$u" >"$NP_TMP/units/$u"
	done
	cd "$NP_TMP/units"
	run systemd-analyze verify --man=no "$PWD/netpolicy.service" "$PWD/netpolicy@br\\x2dlan.service" \
		"$PWD/netpolicy-watch.service" "$PWD/netpolicy-metrics.service"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# Unsandboxed, systemd-analyze security rated every unit 9.6 (UNSAFE);
# netpolicy(8), SANDBOX, gives each one's figure.  That they still do their
# job under it is tests/kernel/sandbox.bats.
@test "systemd-analyze security: every unit sandboxed (exposure at most 2.5), the figures netpolicy(8) gives" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed (package systemd)"
	systemd-analyze security --help | grep -q -- --offline || skip "systemd-analyze security has no --offline (systemd < 250)"
	unitdir=$PKG_DEST$(mkvar systemdsystemunitdir)
	rel=${unitdir#"$PKG_DEST"}
	# systemd looks units up only in its own directories below --root: a
	# build's private prefix (make distcheck's) is analysed from /etc's
	case $rel in
	/lib/systemd/system | /usr/lib/systemd/system | /etc/systemd/system) ;;
	*)
		mkdir -p "$PKG_DEST/etc/systemd/system"
		cp "$unitdir"/netpolicy*.service "$PKG_DEST/etc/systemd/system/"
		rel=/etc/systemd/system
		;;
	esac
	for u in netpolicy.service netpolicy@.service netpolicy-watch.service netpolicy-metrics.service; do
		run systemd-analyze security --offline=yes --no-pager --root="$PKG_DEST" "$rel/$u"
		line=$(tail -1 <<<"$output")
		echo "$u: $line"
		fig=$(grep -o '[0-9][0-9]*\.[0-9]' <<<"$line" | tail -1)
		[ -n "$fig" ]
		awk -v f="$fig" 'BEGIN { exit !(f <= 2.5) }'
		man -l "$NP_SRCDIR/man/netpolicy.8" 2>/dev/null | grep -q "^ *${u//./\\.} *$fig OK"
	done
	for k in CapabilityBoundingSet NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
		RestrictAddressFamilies; do
		for u in netpolicy.service netpolicy@.service netpolicy-watch.service netpolicy-metrics.service; do
			grep -q "^$k" "$unitdir/$u"
		done
	done
}

# --prefix=/usr put the hooks under /usr/etc (sysconfdir), where ifupdown,
# NetworkManager and networkd-dispatcher never look; netpolicy.conf was in
# /etc all along (confdir).
vars_of() {	# BUILDDIR VAR...: the values make has for them there
	local b=$1
	shift
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$b" \
		-f Makefile -f - np-print-var <<<"np-print-var: ; @echo $(printf '$(%s) ' "$@")"
}

@test "configure --prefix=/usr: the hooks go below /etc, with netpolicy.conf" {
	b=$NP_TMP/b
	if [ -f "$NP_SRCDIR/config.status" ]; then
		# configured in place (a package build, dh_auto_configure with
		# --prefix=/usr): no out-of-tree configure from it; that build's
		# own directories are the answer
		b=$NP_SRCDIR
		[ "$(vars_of "$b" prefix)" = /usr ] || skip "the source tree is configured in place with another prefix"
	else
		mkdir "$b"
		(cd "$b" && "$NP_SRCDIR/configure" --prefix=/usr --disable-root-tests >/dev/null)
	fi
	vars_of "$b" ifupdownhookdir nmdispatcherdir networkddispatcherdir confdir >"$NP_TMP/dirs"
	cat "$NP_TMP/dirs"
	[ "$(cat "$NP_TMP/dirs")" = "/etc/network/if-up.d /etc/NetworkManager/dispatcher.d /etc/networkd-dispatcher/carrier.d /etc/netpolicy" ]
}
