#!/usr/bin/env bats
# The Ansible collection (contrib/ansible/collections/.../netpolicy/netpolicy)
# as Galaxy and ansible-test take it: `ansible-galaxy collection build`
# clean, meta/runtime.yml with requires_ansible, the licence file in it, and
# the ansible-test sanity tests that run offline (the others need a
# virtualenv with packages from the network: ansible-doc, import, pep8,
# pylint, runtime-metadata, validate-modules, yamllint).  The modules at work are
# tests/kernel/ansible_module.bats.

load ../helpers

COLL=contrib/ansible/collections/ansible_collections/netpolicy/netpolicy

setup() {
	command -v ansible-galaxy >/dev/null || skip "ansible-core not installed"
	np_tmpdir
	# a copy: ansible-test writes tests/output into the collection
	mkdir -p "$NP_TMP/ansible_collections/netpolicy"
	cp -r "$NP_SRCDIR/$COLL" "$NP_TMP/ansible_collections/netpolicy/netpolicy"
	C=$NP_TMP/ansible_collections/netpolicy/netpolicy
}
teardown() { np_cleanup_tmp; }

@test "ansible-galaxy collection build: clean, with meta/runtime.yml, the licence and module_utils" {
	run ansible-galaxy collection build --output-path "$NP_TMP/out" "$C"
	echo "$output"
	[ "$status" -eq 0 ]
	! grep -qi 'warning' <<<"$output" || false
	files=$(tar -tzf "$NP_TMP"/out/netpolicy-netpolicy-*.tar.gz)
	for f in COPYING meta/runtime.yml plugins/modules/netpolicy.py plugins/modules/netpolicy_facts.py \
		plugins/module_utils/netpolicy.py; do
		grep -qx "$f" <<<"$files" || { echo "missing: $f"; false; }
	done
	grep -q '^requires_ansible: ">=2.14' "$C/meta/runtime.yml"
	cmp "$C/COPYING" "$NP_SRCDIR/COPYING"		# the project's licence text
}

@test "ansible-test sanity, the tests that run offline (shebang #!/usr/bin/python among them)" {
	command -v ansible-test >/dev/null || skip "ansible-test not installed"
	cd "$C"
	tests=()
	for t in action-plugin-docs changelog compile empty-init future-import-boilerplate line-endings \
		metaclass-boilerplate no-assert no-basestring no-dict-iteritems no-get-exception \
		no-illegal-filenames no-main-display no-smart-quotes no-unicode-literals replace-urlopen \
		shebang symlinks use-argspec-type-path use-compat-six; do
		tests+=(--test "$t")
	done
	HOME=$NP_TMP run ansible-test sanity --local --python "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
		"${tests[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	! grep -q '^ERROR' <<<"$output" || false
	head -1 plugins/modules/netpolicy.py | grep -qx '#!/usr/bin/python'
	# validate-modules' author format: a GitHub handle, or !UNKNOWN
	grep -A1 '^author:' plugins/modules/*.py | grep -q '(!UNKNOWN)'
}
