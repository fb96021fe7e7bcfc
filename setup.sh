#!/bin/bash
# One entry point for a fresh Debian 12 machine (run as root):
#   ./setup.sh demo    install what is missing, build, and show every NIC's
#                      state and the throughput plan for it (changes nothing)
#   ./setup.sh check   install what is missing, build, run every test suite
#                      (plain and ASan+UBSan builds) and print the totals
set -euo pipefail
cd "$(dirname "$0")"
top=$PWD
mode=${1:-}

# Only missing packages are installed: apt-get install of an installed
# package would upgrade it, which is not ours to do.
packages=(build-essential autoconf automake libtool pkg-config libmnl-dev libnl-3-dev
	libnl-route-3-dev libjson-c-dev bats bash-completion ethtool iproute2 strace jq time util-linux iperf3
	systemd ansible-core python3 python3-jsonschema
	prometheus-node-exporter)	# its textfile collector scrapes `netpolicy metrics` (tests/kernel/metrics.bats)
lab_packages=(qemu-system-x86 kmod cpio busybox-static xz-utils zstd)
# the Debian package build (tests/pkg/deb.bats)
deb_packages=(dpkg-dev debhelper lintian)

install_missing() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "setup: installing ${missing[*]}" >&2
	[ -n "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v lock)" ] || apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${missing[@]}"; }
}

# The lab's second stack (tests/lab/README.md) takes its kernel and QEMU 10
# from Debian's bookworm-backports.  That suite's Release marks it
# NotAutomatic (priority 100), so adding it upgrades nothing installed.
add_backports() {
	apt-cache policy 2>/dev/null | grep -q ' bookworm-backports/main ' && return 0
	grep -q '^VERSION_CODENAME=bookworm$' /etc/os-release 2>/dev/null || return 0
	echo "setup: adding the bookworm-backports suite" >&2
	cat >/etc/apt/sources.list.d/netpolicy-backports.sources <<-EOF
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	apt-get update -qq
}

# promtool (tests/cli/metrics_alerts.bats: `promtool test rules`; the metrics
# suites' `promtool check metrics`) from Debian's prometheus package, without
# installing the server: installed, the package would start a Prometheus
# listening on port 9090.  Only its promtool is copied out (48 MB).
install_promtool() {
	command -v promtool >/dev/null && return 0
	local tmp
	tmp=$(mktemp -d)
	echo "setup: installing promtool (from the prometheus package) in /usr/local/bin" >&2
	if (cd "$tmp" && apt-get download -qq prometheus >/dev/null &&
		dpkg-deb -x prometheus_*.deb x && install -m 0755 x/usr/bin/promtool /usr/local/bin/promtool); then
		rm -rf "$tmp"
	else
		rm -rf "$tmp"
		echo "setup: promtool not installed; its tests skip" >&2
	fi
}

build() {	# build DIR [configure args...]
	local dir=$1; shift
	[ -x configure ] || ./autogen.sh >/dev/null
	mkdir -p "$dir"
	(cd "$dir" && { [ -f Makefile ] || "$top/configure" --enable-werror "$@" >/dev/null; } &&
		make -j"$(nproc)" >/dev/null)
}

# Sum the per-test-point results automake's TAP driver left in .trs files.
totals() {
	local pass=0 fail=0 skip=0 f
	# not the distcheck copy's (netpolicy-VERSION/_build): the same suites,
	# counted once, from the source tree's run
	for f in $(find "$@" -path '*/netpolicy-*/_build' -prune -o -name '*.trs' -print 2>/dev/null); do
		pass=$((pass + $(grep -cE '^:test-result: (PASS|XFAIL)' "$f" || true)))
		fail=$((fail + $(grep -cE '^:test-result: (FAIL|XPASS|ERROR)' "$f" || true)))
		skip=$((skip + $(grep -cE '^:test-result: SKIP' "$f" || true)))
	done
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}

case "$mode" in
demo)
	install_missing "${packages[@]}"
	build build
	# every interface backed by a device: its state, and the throughput
	# plan for it (a dry run: nothing is changed)
	for dev in /sys/class/net/*/device; do
		[ -e "$dev" ] || continue
		ifname=$(basename "$(dirname "$dev")")
		./build/netpolicy/netpolicy "$ifname" show
		echo
		./build/netpolicy/netpolicy "$ifname" set throughput --dry-run
		echo
	done
	;;
check)
	install_missing "${packages[@]}" "${lab_packages[@]}" "${deb_packages[@]}"
	install_promtool
	add_backports
	build build
	build build-asan --enable-sanitizers
	rm -f build/tests/*/*.trs build-asan/tests/*/*.trs
	rc=0
	# The unit and simulator suites are independent processes (each test in
	# a temporary directory of its own, no root, no namespaces): one per
	# CPU.  The kernel, packaging and lab suites share the machine's
	# namespaces, apt and QEMU's CPUs: one at a time.
	make -C build check -j"$(nproc)" TESTS='$(UNIT_TESTS) $(CLI_RUN)' || rc=1
	make -C build check -j1 TESTS='$(PKG_TESTS) $(DEB_TESTS) $(KERNEL_TESTS) $(LAB_TESTS)' || rc=1
	# The sanitizer build reruns what runs in this process's address space;
	# the lab's guest has no ASan runtime.
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
	make -C build-asan check -j"$(nproc)" TESTS='$(UNIT_TESTS) $(CLI_RUN)' || rc=1
	make -C build-asan check -j1 TESTS='$(KERNEL_TESTS)' || rc=1
	unset ASAN_OPTIONS UBSAN_OPTIONS
	# The release tarball: builds, passes its unit, CLI and packaging suites,
	# installs and uninstalls (make distcheck; the root and lab suites and the
	# kill and allocation sweeps ran above).
	if make -C build distcheck >build/distcheck.log 2>&1; then
		echo "distcheck: passed"
	else
		echo "distcheck: FAILED (build/distcheck.log)"; tail -20 build/distcheck.log; rc=1
	fi
	# every failed test point of either build (each make check above
	# rewrote test-suite.log with its own suites only)
	for f in $(find build build-asan -path '*/netpolicy-*/_build' -prune -o -name '*.trs' -print 2>/dev/null); do
		grep -qE '^:test-result: (FAIL|XPASS|ERROR)' "$f" && echo "FAILED: ${f%.trs}.log" || true
	done
	totals build build-asan || rc=1
	exit $rc
	;;
*)
	echo "usage: $0 demo|check" >&2
	exit 2
	;;
esac
