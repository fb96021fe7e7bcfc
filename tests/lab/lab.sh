#!/bin/bash
# lab.sh - boot a Debian kernel in QEMU (TCG) with real NIC drivers and run
# one guest script.  Two stacks (NP_LAB_STACK): 6.1 = bookworm's kernel under
# the host's QEMU 7.2; 6.12 = bookworm-backports' kernel under its QEMU 10
# (unpacked into the cache, never installed), which emulates igb.
# See tests/lab/README.md.
#
#   lab.sh build                 fetch (apt-get download) + build kernel, netdevsim.ko
#                                and initramfs into $NP_LAB_DIR; cached, idempotent
#   lab.sh run [options] SCRIPT  boot a guest, run SCRIPT as /test.sh, print its
#                                output, exit with its status (124 timeout, 125 setup)
#       -n SPEC     NIC (repeatable): virtio[:Q] virtio-rss[:Q] e1000e e1000 vmxnet3[:Q]
#                   igb (6.12 stack only)
#       -t SECONDS  hard wall-clock limit for QEMU (default 300)
#       -b BINARY   ship a host binary and the shared libraries ldd finds for it
#                   (repeatable): binary in /usr/local/bin, libraries at their host paths
#       -f FILE     ship FILE as /lab/<basename> (repeatable)
#       -c CPUS     guest vCPUs (default 4)      -m MB  guest RAM (default 768)
#       -H SCRIPT   run SCRIPT on the host inside the run's network namespace
#                   (where the taps are) with the guest's output file as $1:
#                   traffic from the host side of each NIC
#   lab.sh can-run               exit 0 if this machine can build and run the lab,
#                                else print one line saying why and exit 1
#
# Environment: NP_LAB_STACK (6.1, the default, or 6.12), NP_LAB_DIR (cache,
# default /var/cache/netpolicy-lab; the 6.12 stack uses its 6.12/), NP_LAB_KVER
# (kernel ABI such as 6.1.0-41-amd64; default: the cached one, else the one
# linux-image-amd64 depends on), NP_LAB_KEEP=1 (keep the run's temp dir).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "$0")")" && pwd)
STACK=${NP_LAB_STACK:-6.1}
LABDIR=${NP_LAB_DIR:-/var/cache/netpolicy-lab}
# driver modules the initramfs carries (their dependencies come along)
MODULES="virtio_pci virtio_net e1000 e1000e igb vmxnet3 veth netdevsim"
HOST_PKGS="qemu-system-x86 ethtool iproute2 jq kmod cpio xz-utils zstd gzip gcc make libc6-dev"
# where the kernel (and for 6.12 QEMU) come from: a suite apt-get knows
SUITE=
QEMU=qemu-system-x86_64 QEMU_DATA=()
case $STACK in
6.1) ;;
6.12)
	LABDIR=$LABDIR/6.12 SUITE=bookworm-backports
	QEMU=$LABDIR/qemu/usr/bin/qemu-system-x86_64
	# its own option ROMs (pvh.bin) first, the host's seabios and ipxe next
	QEMU_DATA=(-L "$LABDIR/qemu/usr/share/qemu" -L /usr/share/qemu -L /usr/share/seabios)
	# its modules, not the host QEMU's (which it refuses to load)
	export QEMU_MODULE_DIR=$LABDIR/qemu/usr/lib/x86_64-linux-gnu/qemu ;;
*) echo "lab: NP_LAB_STACK must be 6.1 or 6.12, not '$STACK'" >&2; exit 2 ;;
esac
OUT=$LABDIR/out

log() { printf 'lab: %s\n' "$*" >&2; }
die() { log "$*"; exit "${RC:-1}"; }

# ============================================================ can-run

can_run() {
	local why=
	if [ "$(id -u)" != 0 ]; then
		why="needs root (network namespaces, taps, apt-get)"
	elif [ ! -c /dev/net/tun ]; then
		why="no /dev/net/tun"
	elif ! command -v qemu-system-x86_64 >/dev/null && ! apt_can_get qemu-system-x86; then
		why="qemu-system-x86_64 missing and apt-get cannot install qemu-system-x86"
	elif [ ! -f "$OUT/stamp" ] && ! suite_known; then
		why="no lab build in $LABDIR and apt knows no $SUITE suite (setup.sh adds it)"
	elif [ ! -f "$OUT/stamp" ] && ! apt_can_get linux-image-amd64; then
		why="no lab build in $LABDIR and apt-get knows no linux-image-amd64"
	elif [ ! -f "$OUT/stamp" ] && ! [ -w "$LABDIR" ] && ! [ -w "$(dirname "$LABDIR")" ]; then
		why="no lab build in $LABDIR and it cannot be created"
	fi
	[ -z "$why" ] && return 0
	echo "lab cannot run: $why"
	return 1
}

apt_known() { command -v apt-cache >/dev/null && apt-cache show "$1" >/dev/null 2>&1; }

# the stack's suite is in the apt sources (setup.sh adds bookworm-backports)
suite_known() {
	[ -z "$SUITE" ] || apt-cache policy 2>/dev/null | grep -q " $SUITE/main "
}

# PKG is in the apt lists, or there are no lists yet (build runs apt-get update)
apt_can_get() {
	command -v apt-get >/dev/null || return 1
	apt_known "$1" && return 0
	! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1
}

# ============================================================ build

# Install only what is missing: `apt-get install` of an installed package
# upgrades it, and we add to the host, never change it.
host_packages() {
	local p missing=
	for p in $HOST_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	log "apt-get install$missing"
	apt_known linux-image-amd64 || apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install$missing failed"
}

# fetch PKG [VERSION]: path of PKG's .deb in debs/, downloaded with apt-get
# unless one is there already (a cached lab needs no apt at all)
fetch() {
	local pkg=$1 ver=${2:-} f
	f=$(ls "$LABDIR/debs/${pkg}_"*"${ver#*:}_"*.deb 2>/dev/null | head -1)
	[ -n "$f" ] && { echo "$f"; return 0; }
	apt_known "$pkg" || apt-get update -qq
	if [ -z "$ver" ] && [ -n "$SUITE" ]; then
		ver=$(apt-cache policy "$pkg" | awk -v s=" $SUITE/" '/^ +(\*\*\* )?[^ ]+ -?[0-9]+$/ { v = $1 == "***" ? $2 : $1 }
			index($0, s) && v != "" { print v; exit }')
	fi
	[ -n "$ver" ] || ver=$(apt-cache show --no-all-versions "$pkg" | awk '/^Version:/ { print $2; exit }')
	[ -n "$ver" ] || die "apt-get knows no $pkg"
	# apt-get download runs as _apt: debs/ belongs to it
	(cd "$LABDIR/debs" && apt-get download -q "$pkg=$ver" >/dev/null) || die "apt-get download $pkg=$ver failed"
	ls "$LABDIR/debs/${pkg}_"*"${ver#*:}_"*.deb | head -1
}

deb_version() { dpkg-deb -f "$1" Version; }

# Which kernel: NP_LAB_KVER, else the cached one (a lab that works keeps working
# when the archive moves on), else what linux-image-amd64 depends on today.
resolve_kernel() {
	KVER=${NP_LAB_KVER:-}
	[ -n "$KVER" ] || KVER=$(cat "$LABDIR/kver" 2>/dev/null)
	if [ -z "$KVER" ]; then
		apt_known linux-image-amd64 || apt-get update -qq
		KVER=$(apt-cache depends ${SUITE:+-t "$SUITE"} linux-image-amd64 |
			awk '/Depends: linux-image-[0-9]/ { sub("linux-image-", "", $2); print $2; exit }')
	fi
	[ -n "$KVER" ] || die "cannot tell which linux-image to use"
}

# Debian builds 6.1 without CONFIG_NETDEVSIM: compile it out of tree from
# linux-source against linux-headers of the very same version.
build_netdevsim() {
	local ko=$1 ver=$2 mm common tmp hdr src p deb kb
	mm=$(echo "$KVER" | cut -d. -f1,2)
	common=${KVER%-amd64}-common
	tmp=$(mktemp -d "$LABDIR/netdevsim.XXXXXX")
	hdr=$tmp/headers src=$tmp/netdevsim
	# kbuild is per minor version in 6.1 (linux-kbuild-6.1), per ABI in 6.12
	kb=linux-kbuild-${KVER%-amd64}
	apt_known "$kb" || kb=linux-kbuild-$mm
	for p in "linux-headers-$KVER" "linux-headers-$common" "$kb"; do
		deb=$(fetch "$p" "$ver") || exit 1
		dpkg-deb -x "$deb" "$hdr" || die "dpkg-deb -x $deb failed"
	done
	# the arch headers include the -common ones by absolute /usr/src path
	sed -i "s#^include /usr/src/#include $hdr/usr/src/#" "$hdr/usr/src/linux-headers-$KVER/Makefile"
	deb=$(fetch "linux-source-$mm" "$ver") || exit 1
	log "extracting drivers/net/netdevsim from $(basename "$deb")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$mm.tar.xz" |
		tar -xJ -C "$tmp" --strip-components=3 "linux-source-$mm/drivers/net/netdevsim" ||
		die "cannot extract netdevsim from $deb"
	log "building netdevsim.ko"
	# no BTF for the module: its link step would want pahole (dwarves)
	make -s -C "$hdr/usr/src/linux-headers-$KVER" M="$src" CONFIG_NETDEVSIM=m \
		CONFIG_DEBUG_INFO_BTF_MODULES= modules \
		>"$tmp/build.log" 2>&1 || { tail -20 "$tmp/build.log" >&2; die "netdevsim build failed (in $tmp)"; }
	strip --strip-debug -o "$ko" "$src/netdevsim.ko" || die "strip failed"
	# only the module is needed from here on: drop ~600 MB of sources and debs
	rm -rf "$tmp" "$LABDIR"/debs/linux-source-* "$LABDIR"/debs/linux-headers-* "$LABDIR"/debs/linux-kbuild-*
}

# copy_with_libs ROOT BINARY DIR: BINARY into ROOT/DIR, its libraries to their
# host paths (the guest's loader finds them there, no LD_LIBRARY_PATH needed)
copy_with_libs() {
	local root=$1 bin=$2 dir=$3 lib
	mkdir -p "$root$dir"
	cp -L "$bin" "$root$dir/" || return 1
	for lib in $(ldd "$bin" 2>/dev/null | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		[ -e "$root$lib" ] && continue
		# a run's archive leaves out what the base initramfs has
		[ -n "${BASE_FILES:-}" ] && grep -qxF ".$lib" "$BASE_FILES" && continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib" || return 1
	done
}

# make_initramfs TMP: unpack kernel and busybox under TMP, write out/
make_initramfs() {
	local t=$1 k=$1/kernel r=$1/root a m ko rel
	dpkg-deb -x "$KDEB" "$k" && dpkg-deb -x "$BBDEB" "$t/busybox" || return 1
	mkdir -p "$k/lib/modules/$KVER/extra" && cp "$NSIM_KO" "$k/lib/modules/$KVER/extra/netdevsim.ko" &&
		depmod -b "$k" "$KVER" || return 1
	mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,proc,sys,dev,tmp,run,lab,root}
	cp "$t/busybox/bin/busybox" "$r/bin/busybox"
	# `busybox --list` includes busybox itself: linking it would make a loop
	for a in $("$r/bin/busybox" --list); do
		case $a in busybox | ip) ;; *) ln -s busybox "$r/bin/$a" ;; esac
	done
	copy_with_libs "$r" "$(command -v ethtool)" /usr/sbin || return 1
	copy_with_libs "$r" "$(command -v ip)" /usr/sbin || return 1
	copy_with_libs "$r" "$(command -v jq)" /usr/bin || return 1
	for m in $MODULES; do
		modprobe -d "$k" -S "$KVER" --show-depends "$m" >>"$t/deps" || return 1
	done
	for ko in $(awk '$1 == "insmod" { print $2 }' "$t/deps" | sort -u); do
		rel=${ko#"$k"}
		mkdir -p "$r$(dirname "$rel")"
		case $ko in
		# 6.12 ships them xz-compressed; busybox modprobe wants them plain
		*.ko.xz) xz -dc "$ko" >"$r${rel%.xz}" ;;
		*) cp "$ko" "$r$rel" ;;
		esac || return 1
	done
	cp "$k/lib/modules/$KVER"/modules.{order,builtin,builtin.modinfo} "$r/lib/modules/$KVER/" &&
		depmod -b "$r" "$KVER" || return 1
	install -m 755 "$HERE/guest/init" "$r/init"
	(cd "$r" && find . | sort >"$OUT/initramfs.files" &&
		cpio -o -H newc --quiet --owner=0:0 <"$OUT/initramfs.files") | gzip -1 >"$OUT/initramfs.cpio.gz" ||
		return 1
	extract_vmlinux "$k/boot/vmlinuz-$KVER" || return 1
	{
		echo "kernel: $(basename "$KDEB"), netdevsim.ko built out of tree"
		echo "busybox: $(basename "$BBDEB")"
		echo "host tools: $(ethtool --version), $(ip -V), $(jq --version)"
		echo "modules: $MODULES"
	} >"$OUT/build-info.txt"
}

# QEMU boots an uncompressed vmlinux through its PVH entry: TCG skips the
# in-guest decompression and boots in ~5 s instead of ~8 s.  6.1's payload
# is xz, 6.12's zstd.
extract_vmlinux() {
	local z=$1 off
	off=$(LC_ALL=C grep -obUaP '\xFD\x37\x7A\x58\x5A\x00' "$z" | head -1 | cut -d: -f1)
	if [ -n "$off" ]; then
		# tail dies of SIGPIPE once xz stops after the first stream: judge the result
		tail -c +$((off + 1)) "$z" | xz -dc --single-stream >"$OUT/vmlinux" 2>/dev/null
	else
		off=$(LC_ALL=C grep -obUaP '\x28\xB5\x2F\xFD' "$z" | head -1 | cut -d: -f1)
		[ -n "$off" ] || { log "no xz or zstd stream in $z"; return 1; }
		# zstd complains about the bytes after the frame: judge the result
		tail -c +$((off + 1)) "$z" | zstd -dcq >"$OUT/vmlinux" 2>/dev/null
	fi
	[ "$(head -c 4 "$OUT/vmlinux" | tail -c 3)" = ELF ] || { log "could not extract vmlinux from $z"; return 1; }
}

# The 6.12 stack's QEMU 10 (it has igb; bookworm's 7.2 has not): unpacked
# under the cache like the kernel, so the host's QEMU stays as it is.  Its
# libraries are all bookworm's; seabios and ipxe come with the host's QEMU.
unpack_qemu() {
	local p deb tmp=$LABDIR/qemu.new
	[ -x "$QEMU" ] && return 0
	suite_known || die "apt knows no $SUITE suite (setup.sh adds it)"
	rm -rf "$tmp"
	for p in qemu-system-x86 qemu-system-data qemu-system-common; do
		deb=$(fetch "$p") || exit 1
		dpkg-deb -x "$deb" "$tmp" || die "dpkg-deb -x $deb failed"
	done
	mkdir -p "$tmp/usr/lib/x86_64-linux-gnu/qemu"
	QEMU_MODULE_DIR=$tmp/usr/lib/x86_64-linux-gnu/qemu "$tmp/usr/bin/qemu-system-x86_64" \
		-L "$tmp/usr/share/qemu" -device igb,help 2>/dev/null | grep -q '^igb options' ||
		die "$(basename "$deb"): no igb in its QEMU (or it does not run: ldd $tmp/usr/bin/qemu-system-x86_64)"
	deb_version "$deb" >"$tmp/version"
	rm -rf "$LABDIR/qemu" && mv "$tmp" "$LABDIR/qemu"
	rm -f "$LABDIR"/debs/qemu-system-*
}

build() {
	[ "$(id -u)" = 0 ] || die "build needs root"
	mkdir -p "$LABDIR/debs" "$OUT" 2>/dev/null || die "cannot create $LABDIR"
	chown _apt "$LABDIR/debs" 2>/dev/null
	exec 9>"$LABDIR/lock"
	flock 9 || die "cannot lock $LABDIR/lock"
	local t0=$SECONDS key tmp
	host_packages
	resolve_kernel
	KDEB=$(fetch "linux-image-$KVER") || exit 1
	BBDEB=$(fetch busybox-static) || exit 1
	echo "$KVER" >"$LABDIR/kver"
	NSIM_KO=$LABDIR/netdevsim-$KVER.ko
	[ -s "$NSIM_KO" ] || build_netdevsim "$NSIM_KO" "$(deb_version "$KDEB")"
	[ "$STACK" = 6.1 ] || unpack_qemu

	# everything the guest image is made of: a change in any of it rebuilds
	key=$( {
		echo "$KDEB $BBDEB $MODULES"
		cat "$LABDIR/qemu/version" 2>/dev/null
		sha256sum "$NSIM_KO" "$HERE/lab.sh" "$HERE/guest/init" \
			"$(command -v ethtool)" "$(command -v ip)" "$(command -v jq)"
	} | sha256sum | cut -d' ' -f1)
	if [ "$(cat "$OUT/stamp" 2>/dev/null)" = "$key" ]; then
		log "up to date: $(basename "$KDEB") in $OUT"
		return 0
	fi
	rm -f "$OUT/stamp"
	tmp=$(mktemp -d "$LABDIR/image.XXXXXX")
	make_initramfs "$tmp" || { rm -rf "$tmp"; die "guest image build failed"; }
	rm -rf "$tmp"
	echo "$key" >"$OUT/stamp"
	log "built $OUT from $(basename "$KDEB") in $((SECONDS - t0)) s"
}

# ============================================================ run

run() {
	local nics=() bins=() files=() timeout=300 cpus=4 mem=768 opt hostscript=
	OPTIND=1
	while getopts n:t:b:f:c:m:H: opt; do
		case $opt in
		n) nics+=("$OPTARG") ;;
		t) timeout=$OPTARG ;;
		b) bins+=("$OPTARG") ;;
		f) files+=("$OPTARG") ;;
		c) cpus=$OPTARG ;;
		m) mem=$OPTARG ;;
		H) hostscript=$OPTARG ;;
		*) RC=125 die "usage: lab.sh run [-n NIC]... [-t SECONDS] [-b BIN]... [-f FILE]... SCRIPT" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 1 ] || RC=125 die "usage: lab.sh run [-n NIC]... [-t SECONDS] [-b BIN]... [-f FILE]... SCRIPT"
	local script=$1
	RC=125
	[ "$(id -u)" = 0 ] || die "run needs root (network namespace, taps)"
	[ -f "$OUT/stamp" ] || die "no lab build in $LABDIR: run 'lab.sh build' first"
	[ -r "$script" ] || die "cannot read $script"

	TMPD=$(mktemp -d "${TMPDIR:-/tmp}/nplab.XXXXXX") || die "mktemp failed"
	NS=nplab-$$-${TMPD##*.}
	QPID=
	trap cleanup EXIT
	trap 'exit 130' INT TERM

	# this run's files go in a second archive; the kernel unpacks both
	local rd=$TMPD/root b f
	mkdir -p "$rd/lab"
	cp "$script" "$rd/test.sh"
	for f in "$HERE"/guest/*; do
		[ "${f##*/}" = init ] || cp "$f" "$rd/lab/"
	done
	for f in "${files[@]}"; do cp -L "$f" "$rd/lab/" || die "cannot ship $f"; done
	BASE_FILES=$OUT/initramfs.files
	for b in "${bins[@]}"; do copy_with_libs "$rd" "$b" /usr/local/bin || die "cannot ship $b"; done
	(cd "$rd" && find . | cpio -o -H newc --quiet --owner=0:0) | gzip -1 >"$TMPD/run.cpio.gz"
	cat "$OUT/initramfs.cpio.gz" "$TMPD/run.cpio.gz" >"$TMPD/initrd"

	# every NIC is a tap QEMU creates in a namespace of its own: no way out
	local qnics=() mods=() i=0 spec name q dev nd
	for spec in "${nics[@]}"; do
		name=${spec%%:*} q=1
		[ "$name" != "$spec" ] && q=${spec#*:}
		case $name in
		virtio | virtio-rss)
			dev=virtio-net-pci
			[ "$q" -gt 1 ] && dev="$dev,mq=on,vectors=$((2 * q + 2))"
			[ "$name" = virtio-rss ] && dev="$dev,rss=on,hash=on"
			mods+=(virtio_pci virtio_net) ;;
		e1000e | e1000) dev=$name mods+=("$name") ;;
		igb)
			[ "$STACK" != 6.1 ] || die "igb needs NP_LAB_STACK=6.12 (QEMU 7.2 has no igb)"
			dev=igb mods+=(igb) q=1 ;;
		vmxnet3) dev=vmxnet3 mods+=(vmxnet3) ;;
		*) die "unknown NIC '$spec' (virtio[:Q] virtio-rss[:Q] e1000e e1000 vmxnet3[:Q] igb)" ;;
		esac
		# vhost=off: QEMU's software RSS needs it, and TCG gains nothing from vhost
		nd="tap,id=n$i,ifname=tap$i,script=no,downscript=no,vhost=off"
		[ "$q" -gt 1 ] && nd="$nd,queues=$q"
		qnics+=(-netdev "$nd" -device "$dev,netdev=n$i,mac=52:54:00:12:34:$((56 + i))")
		i=$((i + 1))
	done
	# no_timer_check: on a loaded host TCG starves the vCPUs and the kernel
	# panics in its IO-APIC timer check ("IO-APIC + timer doesn't work")
	local cmdline="console=ttyS0 loglevel=4 panic=-1 nokaslr no_timer_check nplab.nics=$i"
	cmdline="$cmdline nplab.modules=$(printf '%s\n' "${mods[@]}" | sort -u | paste -sd,)"

	ip netns add "$NS" || die "ip netns add $NS failed"
	local t0=$SECONDS qrc attempt rc
	# QEMU 10.0's multi-threaded TCG has been seen to abort in its own
	# memory map ("iotlb_to_section: Assertion ... failed", 2 of ~30 boots,
	# within 2 s, the guest's console still empty).  Then the test never
	# ran: start the emulator once more.  A crash after the guest is up is
	# the test's result and is reported as such.
	# Also seen (once, 6.12 guest, 4 vCPUs on 2 host CPUs): a vCPU whose
	# timers stop firing, the guest's kernel saying "rcu_preempt kthread
	# timer wakeup didn't happen" and "Possible timer handling issue" until
	# the timeout.  That is the emulator's clock, not the test: its console
	# is shown and the guest started once more from the beginning (fresh
	# emulated NICs); a second stall is the result.
	for attempt in 1 2; do
		boot_guest "$timeout" "$cmdline" "$hostscript"
		qrc=$?
		[ "$attempt" = 1 ] || break
		if [ "$qrc" -ge 128 ] && [ "$qrc" != 137 ] &&
			! grep -q '^NPLAB-READY' "$TMPD/output" 2>/dev/null; then
			log "QEMU died (rc $qrc) before the guest was up: $(tail -n 1 "$TMPD/qemu.log"); starting it again"
		elif [ "$qrc" = 124 ] && grep -q "timer wakeup didn't happen" "$TMPD/console"; then
			log "timeout: the guest's timers stopped firing (an emulation stall); its console, then the guest started again:"
			tail -n 8 "$TMPD/console" >&2
		else
			break
		fi
	done
	tr -d '\r' <"$TMPD/output" >"$TMPD/output.txt"
	grep -v '^NPLAB-' "$TMPD/output.txt"
	rc=$(sed -n 's/^NPLAB-EXIT rc=\([0-9]*\).*/\1/p' "$TMPD/output.txt")
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		rc=124
		log "timeout: killed the guest after ${timeout}s"
	fi
	if [ -z "$rc" ] || [ "$rc" = 124 ]; then
		[ -n "$rc" ] || rc=125
		log "guest gave no exit status (qemu rc $qrc); end of its console:"
		tail -n 25 "$TMPD/console" "$TMPD/qemu.log" >&2
	fi
	log "$(sed -n 's/^NPLAB-READY uptime=\([0-9.]*\).*/guest ready at uptime \1 s, /p' "$TMPD/output.txt")wall $((SECONDS - t0)) s, rc $rc"
	return "$rc"
}

# boot_guest TIMEOUT CMDLINE HOSTSCRIPT: run QEMU (and the host script, if
# any) in the run's namespace until the guest powers off; returns QEMU's status
boot_guest() {
	local timeout=$1 cmdline=$2 hostscript=$3 qrc
	: >"$TMPD/output"
	: >"$TMPD/console"
	ip netns exec "$NS" timeout -k 5 "$timeout" \
		"$QEMU" "${QEMU_DATA[@]}" -accel tcg,thread=multi -cpu max -machine q35 \
		-smp "$cpus" -m "$mem" -nodefaults -no-user-config -display none -no-reboot \
		-kernel "$OUT/vmlinux" -initrd "$TMPD/initrd" -append "$cmdline" \
		-serial "file:$TMPD/console" -serial "file:$TMPD/output" "${qnics[@]}" \
		</dev/null >"$TMPD/qemu.log" 2>&1 &
	QPID=$!
	HPID=
	if [ -n "$hostscript" ]; then
		ip netns exec "$NS" timeout -k 5 "$timeout" bash "$hostscript" "$TMPD/output" \
			>"$TMPD/host.log" 2>&1 &
		HPID=$!
	fi
	wait "$QPID"
	qrc=$?
	QPID=
	if [ -n "$HPID" ]; then
		kill "$HPID" 2>/dev/null
		wait "$HPID" 2>/dev/null
		sed 's/^/# host: /' "$TMPD/host.log"
	fi
	return "$qrc"
}

cleanup() {
	[ -n "${QPID:-}" ] && kill "$QPID" 2>/dev/null && wait "$QPID" 2>/dev/null
	[ -n "${NS:-}" ] && ip netns del "$NS" 2>/dev/null
	if [ "${NP_LAB_KEEP:-0}" = 1 ]; then
		log "kept $TMPD"
	else
		rm -rf "$TMPD"
	fi
}

# ============================================================ main

case ${1:-} in
build) build ;;
run) shift; run "$@"; exit $? ;;
can-run) can_run ;;
*) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
