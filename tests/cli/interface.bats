#!/usr/bin/env bats
# One interface: the command table in netpolicy/main.c makes --help; the man
# page's SYNOPSIS and OPTIONS, the bash completion and the option parser must
# say the same (netpolicy(8), completion/netpolicy).

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

MAN=$NP_SRCDIR/man/netpolicy.8
COMPLETION=$NP_SRCDIR/completion/netpolicy

# --help: "CMD opt opt ..." per command (its own options), "- opt ..." for
# the global ones
help_table() {
	"$NETPOLICY" --help | awk '
		/^Commands:/ { sect = "c"; next }
		/^Options:/ { sect = "o"; next }
		/^$/ { sect = ""; next }
		/^                         [^ -]/ { next }	# a description going on
		sect == "c" && /^  [A-Za-z]/ { w = ($2 ~ /^[a-z]/ && $1 == "DEVICE") ? $2 : $1; order[++n] = w; opts[w] = ""; next }
		sect == "c" && /^ +--/ { opts[w] = opts[w] " " substr($1, 3); next }
		sect == "o" { for (i = 1; i <= NF; i++) if ($i ~ /^--/) { o = substr($i, 3); break }
			      if ($0 !~ /\) /) glob = glob " " o }
		END { for (i = 1; i <= n; i++) print order[i] opts[order[i]]; print "-" glob }'
}

# the man page's SYNOPSIS: "CMD opt ..." per command
man_synopsis() {
	sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$MAN" | awk '
		function flush() { if (cmd != "") print cmd opts; cmd = ""; opts = "" }
		/^\.br/ { flush(); next }
		/^\.PP/ { flush(); cmd = "-"; next }	# "Options for every command"
		/^\.B [a-z]/ && $2 != "netpolicy" && cmd == "" { cmd = $2; next }
		{ s = $0; while (match(s, /\\-\\-([a-z]|\\-)+/)) { o = substr(s, RSTART + 4, RLENGTH - 4); gsub(/\\/, "", o); opts = opts " " o; s = substr(s, RSTART + RLENGTH) } }
		END { flush() }'
}

# every option the man page's OPTIONS section describes
man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH [^O]/p' "$MAN" | awk '
		/^\.TP/ { tp = 1; next }
		tp { s = $0; while (match(s, /\\-\\-([a-z]|\\-)+/)) { o = substr(s, RSTART + 4, RLENGTH - 4); gsub(/\\/, "", o); print o; s = substr(s, RSTART + RLENGTH) } tp = 0 }' |
		sort -u
}

sorted() { tr ' ' '\n' | grep . | sort -u | tr '\n' ' '; }

# COMPREPLY of the completion for the words given (the last one is completed)
complete_words() {
	bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_netpolicy
		printf "%s\n" "${COMPREPLY[@]}"' bash "$COMPLETION" "$@" | sort -u | tr '\n' ' '
}

@test "the man page's SYNOPSIS has the commands and options --help has" {
	help_table | grep -v '^- ' | while read -r cmd opts; do
		want=$(sorted <<<"$opts")
		got=$(man_synopsis | awk -v c="$cmd" '$1 == c { $1 = ""; print }' | sorted)
		[ "$(man_synopsis | awk -v c="$cmd" '$1 == c' | wc -l)" -ge 1 ] || { echo "man: no $cmd"; false; }
		[ "$got" = "$want" ] || { echo "$cmd: man [$got] help [$want]"; false; }
	done
	# and no command --help does not have
	[ "$(man_synopsis | awk '{ print $1 }' | sorted)" = "$(help_table | awk '{ print $1 }' | sorted)" ]
	# the options of every command, help and version aside
	[ "$(man_synopsis | awk '$1 == "-" { $1 = ""; print }' | sorted)" = \
	  "$(help_table | sed -n 's/^- //p' | tr ' ' '\n' | grep -v '^help$' | grep -v '^version$' | sorted)" ]
}

@test "the man page's OPTIONS describe every option --help has, and no other" {
	want=$(help_table | awk '{ for (i = 2; i <= NF; i++) print $i }' | sorted)
	[ "$(man_options | sorted)" = "$want" ] || { echo "man: $(man_options | sorted)"; echo "help: $want"; false; }
}

# The parser itself: "CMD opt ..." for the options each command accepts
# (refused ones say "does not apply"), tried against a device that does not
# exist so nothing runs.  Options are the ones the parser knows: --help's and
# the ones earlier versions hid.
parser_table() {
	local cmd o arg words opts
	for cmd in show set reset check confirm exec try plan policies watch metrics status; do
		case $cmd in
		plan|policies|watch|status) words=("$cmd") ;;
		*) words=(npnosuch0 "$cmd") ;;
		esac
		opts=
		for o in $(help_table | awk '{ for (i = 2; i <= NF; i++) print $i }' | sort -u) root; do
			case $o in
			help|version) opts+=" $o"; continue ;;
			cpus) arg=(0) ;;
			confirm|wait) arg=(5) ;;
			state-dir|root|policy-dir) arg=("$NP_TMP/d") ;;
			model) arg=("$FIXTURES/models/few-msix.json") ;;
			config) arg=("$NP_TMP/none.conf") ;;
			flow) arg=(latency:tcp:6379) ;;
			default) arg=(latency) ;;
			weight) arg=(latency=1) ;;
			rounds) arg=(3) ;;
			settle|timeout) arg=(5) ;;
			metric) arg=('(x)') ;;
			metric-json) arg=(a.b) ;;
			keep) arg=(none) ;;
			log) arg=("$NP_TMP/log") ;;
			output) arg=("$NP_TMP/m.prom") ;;
			*) arg=() ;;
			esac
			cp "$FIXTURES/models/few-msix.json" "$NP_TMP/m.json"
			out=$("$NETPOLICY" --state-dir "$STATE_DIR" --model "$NP_TMP/m.json" "${words[@]}" "--$o" "${arg[@]}" 2>&1) || true
			[[ $out == *"option --$o does not apply"* || $out == *"unrecognized option '--$o'"* ||
			   $out == *"unknown option '--$o'"* ]] || opts+=" $o"
		done
		echo "$cmd $(sorted <<<"$opts")"
	done
}

@test "the parser takes exactly the options --help lists for each command" {
	local glob
	glob=$(help_table | sed -n 's/^- //p')
	parser_table >"$NP_TMP/parser"
	help_table | grep -v '^- ' | while read -r cmd opts; do
		want="$cmd $(sorted <<<"$opts $glob")"
		got=$(awk -v c="$cmd" '$1 == c' "$NP_TMP/parser")
		[ "$got" = "$want" ] || { echo "parser [$got] help [$want]"; false; }
	done
}

@test "completion offers the global options, and after a command only the ones it takes" {
	[ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion not installed"
	glob=$(help_table | sed -n 's/^- //p' | sed 's/[^ ]*/--&/g' | sorted)
	[ "$(complete_words netpolicy --)" = "$glob" ]
	parser_table >"$NP_TMP/parser"
	[ "$(wc -l <"$NP_TMP/parser")" -eq 12 ]
	while read -r cmd opts; do
		case $cmd in
		plan|policies|watch|status) words=(netpolicy "$cmd" --) ;;
		*) words=(netpolicy eth0 "$cmd" --) ;;
		esac
		# metrics parses --json, then refuses it (Prometheus text): not offered
		want=$(for o in $opts; do [[ $cmd == metrics && $o == json ]] || echo "--$o"; done | sorted)
		got=$(complete_words "${words[@]}")
		[ "$got" = "$want" ] || { echo "$cmd: completion [$got] parser [$want]"; false; }
	done <"$NP_TMP/parser"
}

@test "completion: commands, devices, and policies built-in and custom without netpolicy in PATH" {
	[ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion not installed"
	# the commands --help lists, and the devices of this machine (none in a
	# package build's chroot without /sys)
	got=$(complete_words netpolicy '')
	devs=$(ls /sys/class/net 2>/dev/null | grep -vx lo || true)
	for cmd in show plan policies metrics watch $devs; do [[ " $got " == *" $cmd "* ]]; done
	# never lo, which no policy is for
	[[ " $got " != *" lo "* ]]
	# watch takes devices, any number
	[[ " $(complete_words netpolicy watch '') " != *" lo "* ]]
	[ -z "$devs" ] || [[ " $(complete_words netpolicy watch lo '') " == *" ${devs%%$'\n'*} "* ]]
	got=$(complete_words netpolicy lo '')
	[ "$got" = "check confirm exec metrics reset set show try " ]
	# exec: a class, then "--", then a command and its own completion
	[ "$(complete_words netpolicy lo exec '')" = "cpu latency throughput " ]
	[ "$(complete_words netpolicy lo exec latency '')" = "-- " ]
	[[ " $(complete_words netpolicy lo exec latency -- sle) " == *" sleep "* ]]
	# the built-in list is netpolicy's own
	mkdir -p "$NP_TMP/empty" "$NP_TMP/pol"
	[ "$(complete_words netpolicy --policy-dir "$NP_TMP/empty" lo set '')" = \
	  "$("$NETPOLICY" --policy-dir "$NP_TMP/empty" --json policies | jq -r '.policies[].name' | sorted)" ]
	# custom policies from the directory named on the line, netpolicy not run
	printf 'base = throughput\n' >"$NP_TMP/pol/bulk.conf"
	got=$(PATH=/usr/bin:/bin; ! command -v netpolicy >/dev/null; complete_words netpolicy --policy-dir "$NP_TMP/pol" lo set '')
	[ "$got" = "bulk busy-poll cpu latency mixed throughput " ]
	got=$(PATH=/usr/bin:/bin complete_words netpolicy --policy-dir "$NP_TMP/pol" lo check b)
	[ "$got" = "bulk busy-poll " ]
}

@test "completion: --model offers the model's devices, not this machine's; metrics is not offered --json" {
	[ -f /usr/share/bash-completion/bash_completion ] || skip "bash-completion not installed"
	model=$FIXTURES/models/ixgbe-16cpu.json
	want=$(jq -r '.devices[].ifname' "$model" | sorted)
	got=$(complete_words netpolicy --model "$model" '')
	[ "$got" = "$(echo metrics plan policies show status watch $want | sorted)" ]
	[ "$(complete_words netpolicy --model="$model" watch '')" = "$want" ]
	[[ " $(complete_words netpolicy metrics --) " != *" --json "* ]]
	[[ " $(complete_words netpolicy eth0 metrics --j) " != *" --json "* ]]
	[[ " $(complete_words netpolicy eth0 show --j) " == *" --json "* ]]
}

@test "a bad option is one line on stderr, naming it" {
	run "$NETPOLICY" --bogus show
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "netpolicy: unknown option '--bogus' (see 'netpolicy --help')" ]
	run "$NETPOLICY" -x show
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: unknown option '-x' (see 'netpolicy --help')" ]
	run "$NETPOLICY" show --state-dir
	[ "$status" -eq 2 ]
	[ "$output" = "netpolicy: option '--state-dir' needs an argument (see 'netpolicy --help')" ]
}
