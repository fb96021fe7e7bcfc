#!/usr/bin/env bats
# The layout issue 11 asked for, kept: no import cycle between the files of
# the library or of the CLI (a file imports another when it uses a global
# symbol the other defines; tests/arch/cycles.py), and no source file far
# over 600 lines.  Read off the objects this build made.

load ../helpers

setup() { np_tmpdir; }
teardown() { np_cleanup_tmp; }

CYCLES="$NP_SRCDIR/tests/arch/cycles.py"

objects() {
	# the test CLI's objects (tests_netpolicy_test-*.o) are the same files
	# again; an object whose source is gone is a leftover of an older tree
	local o rel
	find "$NP_BUILDDIR/$1" -name '*.o' ! -name 'tests_*' | sort | while read -r o; do
		rel=${o#"$NP_BUILDDIR"/}
		[ ! -e "$NP_SRCDIR/${rel%.o}.c" ] || echo "$o"
	done
}

@test "the checker finds a cycle and names its symbols" {
	printf 'int b(void);\nint a(void) { return b(); }\n' >"$NP_TMP/a.c"
	printf 'int a(void);\nint b(void) { return 1; }\nint c(void) { return a(); }\n' >"$NP_TMP/b.c"
	printf 'int a(void);\nint d(void) { return a(); }\n' >"$NP_TMP/d.c"
	for f in a b d; do cc -c -o "$NP_TMP/$f.o" "$NP_TMP/$f.c"; done
	run python3 "$CYCLES" nm "$NP_TMP/a.o" "$NP_TMP/b.o" "$NP_TMP/d.o"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cycle: $NP_TMP/a.o $NP_TMP/b.o"* ]]
	[[ "$output" == *"$NP_TMP/a.o -> $NP_TMP/b.o: b"* ]]
	[[ "$output" == *"$NP_TMP/b.o -> $NP_TMP/a.o: a"* ]]
	[[ "$output" == *"3 files, 1 cycles"* ]]
	run python3 "$CYCLES" nm "$NP_TMP/a.o" "$NP_TMP/d.o"
	[ "$status" -eq 0 ]
}

@test "the library's files import each other without a cycle" {
	mapfile -t objs < <(objects libnetpolicy)
	[ "${#objs[@]}" -gt 50 ]
	run python3 "$CYCLES" nm "${objs[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the CLI's files import each other without a cycle" {
	mapfile -t objs < <(objects netpolicy)
	[ "${#objs[@]}" -gt 10 ]
	run python3 "$CYCLES" nm "${objs[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "no source file of the library or the CLI is over 600 lines" {
	run bash -c "find '$NP_SRCDIR/libnetpolicy' '$NP_SRCDIR/netpolicy' -name '*.[ch]' -exec wc -l {} + |
		awk '\$2 != \"total\" && \$1 > 600 { print; n++ } END { exit n > 0 }'"
	echo "$output"
	[ "$status" -eq 0 ]
}

FUNCLEN="$NP_SRCDIR/tests/arch/funclen.py"

@test "the length checker finds a long function and a long test file without a reason" {
	{
		printf 'static int long_one(int a,\n\t\t    int b)\n{\n'
		for i in $(seq 1 80); do printf '\ta += %d;\n' "$i"; done
		printf '\treturn a + b;\n}\n\nint short_one(void)\n{\n\treturn 0;\n}\n'
		printf 'int declared(void);\n'
	} >"$NP_TMP/f.c"
	run python3 "$FUNCLEN" functions 80 "$NP_TMP/f.c"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$NP_TMP/f.c:1: long_one is 85 lines (over 80)"* ]]
	[[ "$output" == *"2 functions, 1 over 80 lines"* ]]
	run python3 "$FUNCLEN" functions 85 "$NP_TMP/f.c"
	[ "$status" -eq 0 ]
	seq 1 601 >"$NP_TMP/t.bats"
	run python3 "$FUNCLEN" files 600 "$NP_TMP/t.bats"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t.bats: 601 lines (over 600) and no reason at its top"* ]]
	{ echo "# Over 600 lines on purpose: a reason"; seq 1 600; } >"$NP_TMP/t.bats"
	run python3 "$FUNCLEN" files 600 "$NP_TMP/t.bats"
	[ "$status" -eq 0 ]
}

@test "no function of the library or the CLI is over 80 lines" {
	mapfile -t srcs < <(find "$NP_SRCDIR/libnetpolicy" "$NP_SRCDIR/netpolicy" -name '*.c' | sort)
	run python3 "$FUNCLEN" functions 80 "${srcs[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	# the checker saw the functions: not a pattern that matches nothing
	[[ "$output" =~ ^([0-9]+)\ functions ]]
	[ "${BASH_REMATCH[1]}" -gt 1000 ]
}

@test "no test file is over 600 lines without saying why at its top" {
	mapfile -t files < <(find "$NP_SRCDIR/tests" -type f \( -name '*.c' -o -name '*.h' -o \
		-name '*.bats' -o -name '*.py' -o -name '*.bash' -o -name '*.sh' \) ! -path '*/corpus/*' | sort)
	[ "${#files[@]}" -gt 100 ]
	run python3 "$FUNCLEN" files 600 "${files[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
}

KERNELDOC="$NP_SRCDIR/tests/arch/kerneldoc.py"
HEADERS=("$NP_SRCDIR"/include/netpolicy/*.h)

@test "every exported function of the public headers has kernel-doc" {
	[ "${#HEADERS[@]}" -ge 10 ]
	run python3 "$KERNELDOC" "${HEADERS[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ([0-9]+)\ exported\ functions,\ 0\ problems ]]
	[ "${BASH_REMATCH[1]}" -gt 100 ]
}

@test "the kernel-doc check fails on a missing comment, summary, parameter or Return" {
	# one of each, planted in a copy of the header
	sed -e 's/^ \* np_version() - /  * /' \
	    -e '/^ \* np_ifname_validate() - /,/^ \*\//{/^ \* @err:/d}' \
	    -e '/^ \* np_plan_n_steps() - /,/^ \*\//{/^ \* Return:/d}' \
	    -e '/^ \* np_error_free() - /,/^ \*\//d' \
	    "${HEADERS[@]}" >"$NP_TMP/bad.h"
	run python3 "$KERNELDOC" "$NP_TMP/bad.h"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"np_version: the comment does not start \"np_version() - summary\""* ]]
	[[ "$output" == *"np_ifname_validate: parameter err is not documented (@err:)"* ]]
	[[ "$output" == *"np_plan_n_steps: no \"Return:\" section"* ]]
	[[ "$output" == *"np_error_free: no kernel-doc comment"* ]]
	[[ "$output" == *" 4 problems"* ]]
}

LAYERS="$NP_SRCDIR/tests/arch/layers.py"

@test "the layer checker finds a reference against the folder order" {
	mkdir -p "$NP_TMP/lib/util" "$NP_TMP/lib/plan"
	printf 'int np_plan_b(void);\nint np_util_a(void) { return np_plan_b(); }\n' >"$NP_TMP/a.c"
	printf 'int np_util_c(void);\nint np_plan_b(void) { return np_util_c(); }\n' >"$NP_TMP/b.c"
	printf 'int np_util_c(void) { return 1; }\n' >"$NP_TMP/c.c"
	cc -c -o "$NP_TMP/lib/util/a.o" "$NP_TMP/a.c"
	cc -c -o "$NP_TMP/lib/plan/b.o" "$NP_TMP/b.c"
	cc -c -o "$NP_TMP/lib/util/c.o" "$NP_TMP/c.c"
	run python3 "$LAYERS" nm "$NP_TMP/lib"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"util/a.o -> plan/b.o: np_plan_b"* ]]
	[[ "$output" == *"util -> plan: 1 references against the order"* ]]
	# plan -> util is downward: without a.o the order holds
	run python3 "$LAYERS" nm "$NP_TMP/lib" "$NP_TMP/lib/plan/b.o" "$NP_TMP/lib/util/c.o"
	[ "$status" -eq 0 ]
}

@test "the library's folders reference only their own layer and those below" {
	mapfile -t objs < <(objects libnetpolicy)
	[ "${#objs[@]}" -gt 50 ]
	run python3 "$LAYERS" nm "$NP_BUILDDIR/libnetpolicy" "${objs[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
}
