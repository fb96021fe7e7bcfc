#!/usr/bin/env bats
# Files that decide what root writes to the machine (netpolicy(8) SECURITY):
# a custom policy of policies.d, its directory and netpolicy.conf are read
# only when nobody but root (or the caller) can have written them; a FIFO,
# a symbolic link or an oversized file there is refused at once; an error
# that is no fault of the file (out of file descriptors) is exit 1, not a
# usage error, and EINTR is retried.  Real files with real owners and modes.

load ../helpers
bats_require_minimum_version 1.5.0

setup() {
	np_tmpdir
	np_model few-msix
	POL=$NP_TMP/policies.d
	mkdir -m 0755 "$POL"
	printf 'base = latency\ncoalesce.rx-usecs = 100\n' >"$POL/bulk.conf"
	chmod 0644 "$POL/bulk.conf"
}
teardown() { np_cleanup_tmp; }

npp() { npsim --policy-dir "$POL" "$@"; }

# files owned by another user: chown(2) needs root
need_root() { [ "$(id -u)" = 0 ] || skip "needs root (chown)"; }

unchanged() { cmp -s "$FIXTURES/models/few-msix.json" "$MODEL"; }

@test "trust: a policy file owned by root, 0644, in a root 0755 directory is used" {
	run npp eno1 set bulk
	[ "$status" -eq 0 ]
	[ "$(jq '.devices[0].coalesce.fields["rx-usecs"]' "$MODEL")" = 100 ]
}

@test "trust: a policy file owned by another user is refused, exit 2, nothing changed" {
	need_root
	chown 65534 "$POL/bulk.conf"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not trusted: owned by uid 65534, not by root"* ]]
	unchanged
	# listing them reads the same file the same way
	run npp policies
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not trusted: owned by uid 65534"* ]]
}

@test "trust: a policy file writable by group or others is refused" {
	chmod 0666 "$POL/bulk.conf"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not trusted: writable by others (mode 0666)"* ]]
	chmod 0664 "$POL/bulk.conf"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"writable by its group (mode 0664)"* ]]
	unchanged
	# a built-in's own file too: it would change what `set latency` does
	printf 'coalesce.rx-usecs = 100\n' >"$POL/latency.conf"
	chmod 0666 "$POL/latency.conf"
	run npp eno1 set latency
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/latency.conf: not trusted: writable by others"* ]]
	unchanged
}

@test "trust: a policy file in a directory anyone can write to is refused; built-ins still work" {
	need_root
	chmod 0777 "$POL"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not trusted: its directory $POL is writable by others (mode 0777)"* ]]
	unchanged
	chown 65534 "$POL"
	chmod 0755 "$POL"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"its directory $POL is owned by uid 65534"* ]]
	unchanged
	# no file of that name there: the built-in is used as it is
	run npp eno1 set cpu
	[ "$status" -eq 0 ]
}

@test "trust: a FIFO in policies.d is refused at once, never waited on" {
	rm "$POL/bulk.conf"
	mkfifo -m 0644 "$POL/bulk.conf"
	run timeout 20 "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not a regular file"* ]]
	run timeout 20 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" --policy-dir "$POL" eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: not a regular file"* ]]
	unchanged
}

@test "trust: a symbolic link in policies.d is not followed" {
	mv "$POL/bulk.conf" "$NP_TMP/elsewhere.conf"
	ln -s "$NP_TMP/elsewhere.conf" "$POL/bulk.conf"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: a symbolic link (not followed here)"* ]]
	unchanged
}

@test "trust: an oversized policy file is refused" {
	{ echo 'base = latency'; head -c 70000 /dev/zero | tr '\0' '#'; echo; } >"$POL/bulk.conf"
	run npp eno1 set bulk
	[ "$status" -eq 2 ]
	[[ $output == *"$POL/bulk.conf: file too large"* ]]
}

@test "trust: out of file descriptors opening a built-in's optional file is exit 1, EINTR is retried" {
	command -v strace >/dev/null || skip "strace not installed"
	printf 'coalesce.rx-usecs = 100\n' >"$POL/latency.conf"
	# -P matches the name as openat(2) is given it, relative to the directory
	cd "$NP_TMP"
	run env "$NP_NO_LSAN" strace -f -qq -o /dev/null -P latency.conf -e trace=openat \
		-e inject=openat:error=EMFILE "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
		--policy-dir "$POL" eno1 set latency
	[ "$status" -eq 1 ]
	[[ $output == *"$POL/latency.conf: Too many open files"* ]]
	unchanged
	run env "$NP_NO_LSAN" strace -f -qq -o /dev/null -P latency.conf -e trace=openat \
		-e inject=openat:error=EINTR:when=1 "$NETPOLICY" --state-dir "$STATE_DIR" --model "$MODEL" \
		--policy-dir "$POL" eno1 set latency
	[ "$status" -eq 0 ]
	[ "$(jq '.devices[0].coalesce.fields["rx-usecs"]' "$MODEL")" = 100 ]
}

@test "trust: netpolicy.conf owned by another user or writable by others is refused" {
	need_root
	CONF=$NP_TMP/netpolicy.conf
	printf '[eno1]\npolicy = latency\n' >"$CONF"
	chmod 0644 "$CONF"
	run npsim plan --config "$CONF" --dry-run
	[ "$status" -eq 0 ]
	chmod 0646 "$CONF"
	run npsim plan --config "$CONF"
	[ "$status" -eq 2 ]
	[[ $output == *"$CONF: not trusted: writable by others (mode 0646)"* ]]
	unchanged
	chmod 0644 "$CONF"
	chown 65534 "$CONF"
	run npsim plan --config "$CONF"
	[ "$status" -eq 2 ]
	[[ $output == *"$CONF: not trusted: owned by uid 65534, not by root"* ]]
	unchanged
	# a link to a trusted file is followed (configuration management links it)
	chown 0 "$CONF"
	ln -s "$CONF" "$NP_TMP/link.conf"
	run npsim plan --config "$NP_TMP/link.conf" --dry-run
	[ "$status" -eq 0 ]
}

@test "trust: a user's own files are trusted for that user" {
	need_root
	command -v setpriv >/dev/null || skip "setpriv not installed"
	chown -R 65534 "$NP_TMP"
	run setpriv --reuid 65534 --regid 65534 --clear-groups "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 0 ]
	[[ $output == *"from $POL/bulk.conf, based on latency"* ]]
	chown 0 "$POL/bulk.conf"
	run setpriv --reuid 65534 --regid 65534 --clear-groups "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 0 ]
	chown 1 "$POL/bulk.conf"
	run setpriv --reuid 65534 --regid 65534 --clear-groups "$NETPOLICY" --policy-dir "$POL" policies
	[ "$status" -eq 2 ]
	[[ $output == *"owned by uid 1, not by root or uid 65534"* ]]
}
