# Guest side of the netdevsim comparison (busybox sh, in tests/lab's QEMU
# guest): one `netpolicy set throughput` against the same changes as an
# admin would make them, one ethtool process per setting (-L, -G, -C) plus
# echo for the sysfs and procfs files, generated from the dry-run plan.
# Needs a nanosecond clock, which busybox lacks: pass the host's date.
#
#   tests/lab/lab.sh build
#   tests/lab/lab.sh run -b build/netpolicy/netpolicy -b /usr/bin/date -t 300 \
#           bench/lab_netdevsim.sh
#
# Prints TAP lines, then one line "bench {JSON}" with the medians (us).
# Under TCG every instruction is emulated: only the ratios mean something.
. /lab/lib.sh

RUNS=15
POLICY=throughput

# 8 channels on 4 CPUs: the plan changes channels, rings and coalescing
IF=$(nsim_add 1 8) || { fail "create a netdevsim device"; finish; }
ip link set "$IF" up
DATE=/usr/local/bin/date	# busybox sh would run its own applet, which has no %N
"$DATE" +%s%N | grep -q '^[0-9]*$' || { fail "date +%s%N (pass -b /usr/bin/date)"; finish; }

# list2hex CPULIST: "0-1,3" as the hex mask sysfs takes ("-": none)
list2hex() {
	echo "$1" | awk -F, '{
		m = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "-")
				continue
			n = split($i, r, "-")
			lo = r[1]; hi = n > 1 ? r[2] : r[1]
			for (c = lo; c <= hi; c++) {
				b = 1
				for (k = 0; k < c; k++)
					b *= 2
				m += b
			}
		}
		printf "%x\n", m
	}'
}

# change KNOB WHAT VALUE: the command an admin would type for one change,
# or the ethtool option and its words for the ones ethtool groups
change() {
	q=/sys/class/net/$IF/queues
	case $1 in
	channels) echo "-L $2 $3" ;;
	rings) echo "-G $2 $3" ;;
	coalesce) echo "-C $2 $3" ;;
	xps) echo "echo $(list2hex "$3") > $q/$2/xps_cpus" ;;
	rps) echo "echo $(list2hex "$3") > $q/$2/rps_cpus" ;;
	rfs) echo "echo $3 > $q/${2% flow-cnt}/rps_flow_cnt" ;;
	sysctl) echo "echo $3 > /proc/sys/$(echo "$2" | tr . /)" ;;
	*) echo "unknown $1" ;;
	esac
}

# script FIELD: apply.sh from the "after" values (FIELD 3) or restore.sh
# from the "before" values (FIELD 2, steps backwards); one ethtool process
# per option, as ethtool takes them
script() {
	jq -r 'def text: if type == "null" then "(new queue)" elif . == "" then "-" elif type == "boolean" then (if . then "on" else "off" end) elif type == "object" then (if .spread == "even" then "even over \(.queues) queues" else "custom over queues 0-\(.max_queue)" end) else tostring end; .steps[] | .knob as $k | .changes[] | [$k, .what, (.before | text), (.after | text)] | @tsv' \
		/tmp/plan.json >/tmp/changes
	if [ "$1" = 2 ]; then
		awk '{ l[NR] = $0 } END { for (i = NR; i > 0; i--) print l[i] }' /tmp/changes \
			>/tmp/changes.r && mv /tmp/changes.r /tmp/changes
	fi
	: >/tmp/ethtool
	while IFS=$(printf '\t') read -r knob what before after; do
		[ "$1" = 3 ] && v=$after || v=$before
		c=$(change "$knob" "$what" "$v")
		case $c in
		unknown*) echo "exit 3 # $c" ;;
		-?" "*) echo "$c" >>/tmp/ethtool ;;
		*) echo "$c" ;;
		esac
	done </tmp/changes >/tmp/files
	# ethtool first when applying (queues before their files), last when restoring
	awk -v dev="$IF" '{ o[$1] = o[$1] " " $2 " " $3 }
		END { split("-L -G -C", k, " ")
		      for (i = 1; i <= 3; i++) if (k[i] in o) print "ethtool " k[i] " " dev o[k[i]] }' \
		/tmp/ethtool >/tmp/ethtool.sh
	if [ "$1" = 3 ]; then
		cat /tmp/ethtool.sh /tmp/files
	else
		cat /tmp/files /tmp/ethtool.sh
	fi
}

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# one PREP CMD...: wall time (us) of CMD, after PREP (untimed)
one() {
	$1 >/dev/null 2>&1
	shift
	s=$("$DATE" +%s%N)
	"$@" >/dev/null 2>&1 || echo "# failed: $*" >&2
	e=$("$DATE" +%s%N)
	echo $(((e - s) / 1000))
}

# pair PREP1 CMD1 PREP2 CMD2: medians (us) of CMD1 and CMD2 over RUNS
# rounds of one of each, so that the host's load hits both alike
pair() {
	: >/tmp/t1
	: >/tmp/t2
	i=0
	while [ $i -lt "$RUNS" ]; do
		one "$1" "$2" >>/tmp/t1
		one "$3" "$4" >>/tmp/t2
		i=$((i + 1))
	done
	echo "$(median </tmp/t1) $(median </tmp/t2)"
}

np_reset() { "$NP" "$IF" reset; }
np_set() { "$NP" "$IF" set "$POLICY"; }
restore() { sh /tmp/restore.sh; }
apply() { sh /tmp/apply.sh; }
show() { "$NP" --json "$IF" show; }
ethtool_l() { ethtool -l "$IF"; }

"$NP" --json "$IF" set "$POLICY" --dry-run >/tmp/plan.json
script 3 >/tmp/apply.sh
script 2 >/tmp/restore.sh
diag "apply.sh:"
sed 's/^/#   /' /tmp/apply.sh
is "$(grep -c "^ethtool" /tmp/apply.sh)" 3 "ethtool processes in apply.sh"
snapshot "$IF" /tmp/pristine
ok "apply.sh" sh /tmp/apply.sh
ok "apply.sh reaches the $POLICY plan" "$NP" "$IF" check "$POLICY"
ok "restore.sh" sh /tmp/restore.sh
check_restored "$IF" /tmp/pristine

np_set >/dev/null
np_reset >/dev/null
read -r set_us script_us <<EOF
$(pair np_reset np_set restore apply)
EOF
read -r reset_us restore_us <<EOF
$(pair np_set np_reset apply restore)
EOF
read -r show_us ethtool_us <<EOF
$(pair : show : ethtool_l)
EOF
np_set >/dev/null
read -r noop_us _ <<EOF
$(pair : np_set : true)
EOF
np_reset >/dev/null
check_restored "$IF" /tmp/pristine

diag "set $set_us us, apply.sh $script_us us; reset $reset_us us, restore.sh $restore_us us"
diag "show --json $show_us us, ethtool -l $ethtool_us us; no-op set $noop_us us"
echo "bench {\"runs\":$RUNS,\"queues\":8,\"cpus\":$(nproc),\"set_us\":$set_us," \
	"\"script_us\":$script_us,\"reset_us\":$reset_us,\"restore_us\":$restore_us," \
	"\"show_json_us\":$show_us,\"ethtool_l_us\":$ethtool_us,\"noop_us\":$noop_us}"
finish
