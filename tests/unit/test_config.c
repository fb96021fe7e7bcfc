/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * netpolicy.conf parser: good files load with every device in file order;
 * each kind of mistake is refused as NP_PHASE_INPUT naming FILE:LINE, and
 * nothing is returned.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>
#include <netpolicy/netpolicy.h>

/* struct np_error's members: the tests see what the API keeps opaque */
#include "np_private.h"
#include "tap.h"

static char tmpdir[64], path[128];

static void write_conf(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
}

static struct np_config *load(const char *text, struct np_error *err)
{
	struct np_config *cfg = NULL;

	write_conf(text, strlen(text));
	np_error_clear(err);
	if (np_config_load(NULL, path, &cfg, err) < 0)
		return NULL;
	return cfg;
}

static void test_good(void)
{
	struct np_config *cfg;
	struct json_object *j = NULL, *d;
	struct np_error err;
	size_t idx = 99;

	cfg = load("# /etc/netpolicy.conf\n"
		   "\n"
		   "[eth0]\n"
		   "policy = throughput\n"
		   "cpus = 0-7          # optional\n"
		   "; a systemd-style comment\n"
		   "  [ ens1f0np0 ]  \n"
		   "\tpolicy=latency\r\n"
		   "[eno1]\n"
		   "cpus=0-15:1/2,32\n"
		   "policy =cpu\n", &err);
	ok(cfg != NULL, "a good file loads (%s)", err.msg);
	if (!cfg)
		return;
	is_int(np_config_n_devices(cfg), 3, "three devices");
	is_str(np_config_ifname(cfg, 0), "eth0", "file order: eth0 first");
	is_str(np_config_policy(cfg, 0), "throughput", "eth0's policy");
	is_str(np_config_cpus(cfg, 0), "0-7", "inline comment and blanks stripped from cpus");
	is_int(np_config_line(cfg, 0), 3, "eth0's section is on line 3");
	is_str(np_config_ifname(cfg, 1), "ens1f0np0", "blanks inside brackets are not part of the name");
	is_str(np_config_policy(cfg, 1), "latency", "tab indent and CRLF accepted");
	ok(np_config_cpus(cfg, 1) == NULL, "cpus is optional (NULL when absent)");
	is_str(np_config_cpus(cfg, 2), "0-15:1/2,32", "the kernel's cpulist syntax is accepted");
	is_str(np_config_policy(cfg, 2), "cpu", "keys may come in any order");
	ok(np_config_ifname(cfg, 3) == NULL && np_config_policy(cfg, 3) == NULL &&
	   np_config_cpus(cfg, 3) == NULL && np_config_line(cfg, 3) == 0,
	   "accessors return NULL/0 out of range");
	ok(np_config_find(cfg, "eno1", &idx) == 0 && idx == 2, "find eno1 at index 2");
	is_int(np_config_find(cfg, "eth1", &idx), -ENOENT, "find a device not configured");
	is_str(np_config_path(cfg), path, "path kept");

	ok(np_config_to_json(cfg, &j) == 0, "to_json");
	d = json_object_array_get_idx(json_object_object_get(j, "devices"), 1);
	is_str(json_object_get_string(json_object_object_get(d, "ifname")), "ens1f0np0",
	       "JSON devices[1].ifname");
	ok(json_object_object_get_ex(d, "cpus", NULL) && !json_object_object_get(d, "cpus"),
	   "JSON cpus is null when not given");
	is_int(json_object_get_int(json_object_object_get(d, "line")), 7, "JSON line");
	json_object_put(j);
	np_config_free(cfg);

	cfg = load("# nothing configured yet\n", &err);
	ok(cfg && np_config_n_devices(cfg) == 0, "a file with no device is valid (and empty)");
	np_config_free(cfg);
	cfg = load("", &err);
	ok(cfg && np_config_n_devices(cfg) == 0, "an empty file is valid");
	np_config_free(cfg);
	cfg = load("[eth0]\npolicy = cpu", &err);
	ok(cfg && np_config_n_devices(cfg) == 1, "no newline at the end of the file");
	np_config_free(cfg);
	np_config_free(NULL);
	ok(1, "np_config_free(NULL) is a no-op");
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *msg;
	} cases[] = {
		{ "[eth0]\npolicy = cpu\npolcy = cpu\n", 3, "unknown key 'polcy' (valid: policy, cpus, flow, default-class, weight)" },
		{ "[eth0]\nPolicy = cpu\n", 2, "unknown key 'Policy' (valid: policy, cpus, flow, default-class, weight)" },
		{ "# c\n[eth0]\ncpus = 1\n\n[eth1]\npolicy = cpu\n", 2, "[eth0]: no policy (add 'policy = NAME')" },
		{ "[eth0]\npolicy = fastest\n", 2, "unknown policy 'fastest' (valid: cpu, latency, busy-poll, throughput, mixed)" },
		/* the mixed policy's keys: checked as --flow, --default, --weight */
		{ "[eth0]\npolicy = mixed\nflow = latency:tcp:6379\nflow = latency:tcp:x\n", 4,
		  "flow \"latency:tcp:x\": column 13: unknown term (a port, dst=, src=, dst-port=, src-port=, dst-ip=, src-ip=, vlan=)" },
		{ "[eth0]\npolicy = throughput\n\nflow = latency:tcp:6379\n", 4,
		  "[eth0]: flow, default-class and weight are for the mixed policy, not throughput" },
		{ "[eth0]\npolicy = mixed\ndefault-class = bulk\n", 3,
		  "unknown class 'bulk' (latency, throughput, cpu)" },
		{ "[eth0]\npolicy = mixed\nweight = latency=1\nweight = cpu=2\n", 4,
		  "[eth0]: weight given twice" },
		{ "[eth0]\npolicy = mixed\nweight = latency=0\n", 3,
		  "weight 'latency=0': expected a number from 1 to 64" },
		{ "[eth0]\npolicy = cpu\n[eth1]\npolicy = cpu\n[eth0]\n", 5, "duplicate section [eth0] (first at line 1)" },
		{ "[eth/0]\npolicy = cpu\n", 1, "invalid device name 'eth/0'" },
		{ "[..]\npolicy = cpu\n", 1, "invalid device name '..'" },
		{ "[]\npolicy = cpu\n", 1, "empty device name" },
		{ "[aaaaaaaaaaaaaaaaaaaa]\n", 1, "device name 'aaaaaaaaaaaaaaaa...' is longer than 15 characters" },
		{ "[eth0]\npolicy = cpu\ncpus = 0-x\n", 3, "cpus: '0-x' is not a CPU list (like 0-3,8)" },
		{ "[eth0]\npolicy = cpu\ncpus = 3-1\n", 3, "cpus: '3-1' is not a CPU list (like 0-3,8)" },
		{ "[eth0]\npolicy = cpu\ncpus = 0-3 7\n", 3, "cpus: '0-3 7' is not a CPU list (like 0-3,8)" },
		{ "[eth0]\npolicy = cpu\ncpus = 4096\n", 3, "cpus: '4096': CPU numbers go up to 2047" },
		{ "[eth0]\npolicy = cpu\ncpus =\n", 3, "cpus: empty value" },
		{ "[eth0]\npolicy = # later\n", 2, "policy: empty value" },
		{ "[eth0]\npolicy = cpu\npolicy = latency\n", 3, "[eth0]: policy given twice (first at line 2)" },
		{ "[eth0]\npolicy = cpu\ncpus = 1\ncpus = 2\n", 4, "[eth0]: cpus given twice (first at line 3)" },
		{ "\npolicy = cpu\n[eth0]\n", 2, "'policy' before any [DEVICE] section" },
		{ "[eth0\npolicy = cpu\n", 1, "expected '[DEVICE]'" },
		{ "[eth0] policy = cpu\n", 1, "expected '[DEVICE]'" },
		{ "[eth0]\npolicy cpu\n", 2, "expected 'KEY = VALUE' or '[DEVICE]', got 'policy cpu'" },
		{ "[eth0]\n= cpu\n", 2, "missing key before '='" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct np_config *cfg = (struct np_config *)&cfg;	/* must stay untouched */
		struct np_error err;
		char want[384];
		int r;

		write_conf(cases[i].text, strlen(cases[i].text));
		np_error_clear(&err);
		r = np_config_load(NULL, path, &cfg, &err);
		snprintf(want, sizeof(want), "%s:%u: %s", path, cases[i].line, cases[i].msg);
		ok(r == -EINVAL && err.phase == NP_PHASE_INPUT && err.code == -EINVAL &&
		   cfg == (struct np_config *)&cfg, "case %zu refused as input, ret untouched", i);
		is_str(err.msg, want, "case %zu: message names the line", i);
	}
}

/* A mixed device's keys come back as np_plan_opts, in order. */
static void test_mixed_keys(void)
{
	const char *text = "[eth0]\npolicy = mixed\nflow = latency:tcp:6379\nflow = cpu:udp:53\n"
			   "default-class = cpu\nweight = latency=3\n[eth1]\npolicy = throughput\n";
	NP_PLAN_OPTS(o);
	NP_PLAN_OPTS(other);
	struct np_config *cfg = NULL;
	struct np_error err;

	write_conf(text, strlen(text));
	np_error_clear(&err);
	is_int(np_config_load(NULL, path, &cfg, &err), 0, "mixed keys load (%s)", err.msg);
	if (!cfg)
		return;
	np_config_mixed_opts(cfg, 0, &o);
	ok(o.flags & NP_PLAN_OPTS_MIXED, "mixed device: its options are given");
	is_int((int)o.n_flows, 2, "two flows");
	if (o.n_flows == 2) {
		is_str(o.flows[0], "latency:tcp:6379", "first flow as written");
		is_str(o.flows[1], "cpu:udp:53", "second flow as written");
	}
	is_str(o.default_class, "cpu", "default-class");
	is_str(o.weights, "latency=3", "weight");
	np_config_mixed_opts(cfg, 1, &other);
	ok(!other.flags && !other.n_flows && !other.default_class, "throughput device: none");
	np_config_free(cfg);
}

static void test_files(void)
{
	struct np_config *cfg = NULL;
	struct np_error err;
	char missing[160];

	write_conf("[eth0]\npolicy = cpu\0\n", 21);
	np_error_clear(&err);
	is_int(np_config_load(NULL, path, &cfg, &err), -EINVAL, "a NUL byte is refused");
	ok(strstr(err.msg, ":2: NUL byte") != NULL, "... naming its line (%s)", err.msg);

	snprintf(missing, sizeof(missing), "%s/missing.conf", tmpdir);
	np_error_clear(&err);
	is_int(np_config_load(NULL, missing, &cfg, &err), -ENOENT, "a missing file: -ENOENT");
	ok(err.phase == NP_PHASE_INPUT && strstr(err.msg, "missing.conf: No such file"),
	   "... as input, naming the file (%s)", err.msg);

	np_error_clear(&err);
	is_int(np_config_load(NULL, tmpdir, &cfg, &err), -EISDIR, "a directory is refused");
	ok(cfg == NULL, "nothing returned on errors");

	/* a long line is an error message, not a crash or a truncated parse */
	{
		size_t n = 100000;
		char *big = malloc(n + 16);

		memcpy(big, "[eth0]\npolicy = ", 16);
		memset(big + 16, 'x', n - 1);
		big[16 + n - 1] = '\n';
		write_conf(big, 16 + n);
		free(big);
		np_error_clear(&err);
		is_int(np_config_load(NULL, path, &cfg, &err), -EINVAL, "a 100000-character value is refused");
		ok(!strncmp(err.msg, path, strlen(path)) &&
		   strstr(err.msg, ":2: line longer than 4096 characters"), "... on its line");
	}
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/np-test-config.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}
	snprintf(path, sizeof(path), "%s/netpolicy.conf", tmpdir);
	test_good();
	test_errors();
	test_mixed_keys();
	test_files();
	unlink(path);
	rmdir(tmpdir);
	return tap_done();
}
