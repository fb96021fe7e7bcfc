#!/usr/bin/env bats
# SIGKILL sweep on drivers that place ntuple rules themselves (the sim's
# sfc: RX_CLS_LOC_ANY only, the driver chooses each rule's location): set
# mixed, reset, a switch mixed -> throughput and mixed -> another flow set,
# each killed on entry to every fdatasync (journal marks), renameat and
# unlinkat (state files) and rename (the simulated driver's model saved
# after each of its operations: a kill there is a kill before that driver
# call took effect).  After each kill the device is as it was, at the
# target, or has a journal; then a command that changes the device
# (the killed one again, reset, or another set) rolls the journal back,
# re-inserting deleted rules wherever the driver says, and ends exactly at
# its own target, the foreign rule kept and no journal left.  The work
# directory is on a tmpfs where there is one: the sweep makes hundreds of
# runs and each syncs its files.

load ../helpers

F1=(--flow latency:tcp:6379 --flow throughput:tcp:5201 --flow cpu:udp:53)
F2=(--flow latency:tcp:11211 --flow cpu:udp:123)

setup() {
	command -v strace >/dev/null || skip "strace not installed"
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		NP_TMP=$(mktemp -d /dev/shm/netpolicy.XXXXXX)
		STATE_DIR=$NP_TMP/state
	else
		np_tmpdir
	fi
	np_sim_dev sfc-mixed
	[ "$(jq .devices[0].ntuple.special "$MODEL")" = true ]
	# the models each command ends in: pristine, mixed F1, mixed F2 (from
	# mixed F1, as the switch makes it), throughput
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	"${NP[@]}" "$DEV" reset >/dev/null
	want P
	"${NP[@]}" "$DEV" set throughput >/dev/null
	want TH
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	want M1
	"${NP[@]}" "$DEV" set mixed "${F2[@]}" >/dev/null
	want M2
	"${NP[@]}" "$DEV" reset >/dev/null
	cmp -s "$MODEL" "$NP_TMP/want.P"
	rm -rf "$STATE_DIR"
}

teardown() { np_cleanup_tmp; }

want() { cp "$MODEL" "$NP_TMP/want.$1"; }

# the device and netpolicy's records as they are now: saved, put back
save() { rm -rf "$NP_TMP/saved.$1"; mkdir "$NP_TMP/saved.$1"; cp "$MODEL" "$NP_TMP/saved.$1/model"
	 [ ! -d "$STATE_DIR" ] || cp -a "$STATE_DIR" "$NP_TMP/saved.$1/state"; }
restore() { cp "$NP_TMP/saved.$1/model" "$MODEL"; rm -rf "$STATE_DIR"
	    [ ! -d "$NP_TMP/saved.$1/state" ] || cp -a "$NP_TMP/saved.$1/state" "$STATE_DIR"; }

# the command line of a command word: "set-mixed-F1" -> set mixed F1's flows
words() {
	case $1 in
	set-mixed-F1) echo "set mixed ${F1[*]}" ;;
	set-mixed-F2) echo "set mixed ${F2[*]}" ;;
	set-throughput) echo "set throughput" ;;
	reset) echo "reset" ;;
	esac
}

# sweep START KILLED TARGET RECOVERY:ITS_TARGET...: from the state START
# (a model name, with the records of the command that made it), KILLED
# (to TARGET) killed at every point; the recovering commands in turn
sweep() {
	local start=$1 killed=$2 target=$3 sc k n at rec cmd goal
	shift 3
	local -a recs=("$@") kc
	read -ra kc <<<"$(words "$killed")"
	restore "$start"
	for sc in fdatasync renameat unlinkat rename; do
		k=$(np_count_calls "$sc" "${NP[@]}" "$DEV" "${kc[@]}")
		cmp -s "$MODEL" "$NP_TMP/want.$target" || np_kill_fail "$killed" "a clean run missed its target"
		for ((n = 1; n <= k; n++)); do
			at="$killed from $start, $sc #$n"
			restore "$start"
			np_killed_at "$sc" "$n" "${NP[@]}" "$DEV" "${kc[@]}"
			cmp -s "$MODEL" "$NP_TMP/want.$start" || cmp -s "$MODEL" "$NP_TMP/want.$target" ||
				[ -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "device half-way, no journal"
			rec=${recs[$(((n + ${#sc}) % ${#recs[@]}))]}
			cmd=${rec%%:*}
			goal=${rec#*:}
			read -ra rc <<<"$(words "$cmd")"
			"${NP[@]}" "$DEV" "${rc[@]}" >/dev/null 2>"$NP_TMP/kill.err" ||
				np_kill_fail "$at" "$cmd after it failed"
			cmp -s "$MODEL" "$NP_TMP/want.$goal" ||
				np_kill_fail "$at" "$cmd after it did not end exactly at $goal: $(diff <(jq -c .devices[0].ntuple "$MODEL") <(jq -c .devices[0].ntuple "$NP_TMP/want.$goal"))"
			[ ! -e "$STATE_DIR/$DEV.journal" ] || np_kill_fail "$at" "journal left after $cmd"
			if [ "$goal" = P ]; then
				[ -z "$(ls -A "$STATE_DIR" | grep -v '\.lock$')" ] ||
					np_kill_fail "$at" "records left after $cmd"
			elif [ "$cmd" = "$killed" ]; then
				"${NP[@]}" "$DEV" check >/dev/null 2>"$NP_TMP/kill.err" ||
					np_kill_fail "$at" "check after $cmd fails"
			fi
			NKILLS=$((NKILLS + 1))
		done
	done
}

@test "sfc: SIGKILL anywhere in set mixed, then set, reset or another set ends exactly at its target" {
	save P
	NKILLS=0
	sweep P set-mixed-F1 M1 set-mixed-F1:M1 reset:P set-throughput:TH
	echo "# $NKILLS kills" >&3
}

@test "sfc: SIGKILL anywhere in reset of mixed, then reset, set mixed or set throughput ends exactly at its target" {
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	save M1
	NKILLS=0
	sweep M1 reset P reset:P set-mixed-F1:M1 set-throughput:TH
	echo "# $NKILLS kills" >&3
}

@test "sfc: SIGKILL anywhere in a switch mixed -> throughput, then any command ends exactly at its target" {
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	save M1
	NKILLS=0
	sweep M1 set-throughput TH set-throughput:TH reset:P set-mixed-F1:M1
	echo "# $NKILLS kills" >&3
}

@test "sfc: SIGKILL anywhere in a switch to other flows, then any command ends exactly at its target" {
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	save M1
	NKILLS=0
	sweep M1 set-mixed-F2 M2 set-mixed-F2:M2 reset:P set-mixed-F1:M1
	echo "# $NKILLS kills" >&3
}

@test "sfc: a rule rolled back after a kill goes where the driver puts it, and the record follows it" {
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	# the 4th sync: netpolicy's first three rules deleted
	np_killed_at fdatasync 4 "${NP[@]}" "$DEV" set throughput
	[ -e "$STATE_DIR/$DEV.journal" ]
	gone=$(comm -23 <(jq -r '.mixed.classes[].rules[]' "$STATE_DIR/$DEV.policy" | sort) \
			<(jq -r '.devices[0].ntuple.rules[].location' "$MODEL" | sort) | head -1)
	[ -n "$gone" ]
	# someone else takes the location the driver had given a deleted rule
	jq ".devices[0].ntuple.rules += [{\"location\": $gone, \"flow\": \"udp4:dst-port=123\", \"queue\": 1}]" \
		"$MODEL" >"$NP_TMP/x" && mv "$NP_TMP/x" "$MODEL"
	run "${NP[@]}" "$DEV" set mixed "${F1[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"rolled back an interrupted earlier run"* ]]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
	# the foreign rule kept where it was; netpolicy's rule elsewhere, recorded there
	[ "$(jq -r ".devices[0].ntuple.rules[] | select(.location == $gone) | .flow" "$MODEL")" = udp4:dst-port=123 ]
	[ "$(jq -r '[.mixed.classes[].rules[]] | sort | map(tostring) | join(" ")' "$STATE_DIR/$DEV.policy")" = \
	  "$(jq -r "[.devices[0].ntuple.rules[] | select(.location != 300 and .location != $gone) | .location] |
		sort | map(tostring) | join(\" \")" "$MODEL")" ]
	run "${NP[@]}" "$DEV" check
	[ "$status" -eq 0 ]
	# reset removes netpolicy's rules and nothing else
	run "${NP[@]}" "$DEV" reset
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.devices[0].ntuple.rules[] | .location] | sort' "$MODEL")" = "[$gone,300]" ] ||
	  [ "$(jq -c '[.devices[0].ntuple.rules[] | .location] | sort' "$MODEL")" = "[300,$gone]" ]
}

@test "sfc: a failed switch away from mixed rolls its rule deletions back in the same run" {
	"${NP[@]}" "$DEV" set mixed "${F1[@]}" >/dev/null
	cp "$MODEL" "$NP_TMP/mixed"
	rec=$(cat "$STATE_DIR/$DEV.policy")
	# the main RSS table comes after the rule deletions
	jq '.faults = [{"op": "set_rss_indir", "after": 0, "errno": "ENOBUFS"}]' "$MODEL" >"$NP_TMP/x" &&
		mv "$NP_TMP/x" "$MODEL"
	run "${NP[@]}" "$DEV" set throughput
	[ "$status" -eq 3 ]
	[[ "$output" == *"rolled back, the device is as it was"* ]]
	[ "$(jq -c 'del(.faults, .calls)' "$MODEL")" = "$(jq -c 'del(.faults, .calls)' "$NP_TMP/mixed")" ]
	[ ! -e "$STATE_DIR/$DEV.journal" ]
	[ "$(cat "$STATE_DIR/$DEV.policy")" = "$rec" ]
}
