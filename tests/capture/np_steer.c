/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test tool: sends netpolicy's ntuple and RSS-context requests through the
 * library's real I/O paths, so that tests/kernel/steer.bats can capture
 * them (tests/capture/capture.c) next to ethtool's for the same rule.
 *
 *   np_steer ins IFNAME CLASS:SPEC queue Q|context C [offset O] [loc L]
 *   np_steer del IFNAME LOC
 *   np_steer list IFNAME
 *   np_steer ctx-new IFNAME [--ioctl] [start S] [equal N]
 *   np_steer ctx-del IFNAME CTX [--ioctl]
 *   np_steer ctx-get IFNAME CTX [--ioctl]
 *   np_steer qcoal IFNAME QUEUE FIELD VALUE...   (per-queue coalescing set)
 *   np_steer qcoal-get IFNAME NQUEUES FIELD...   (read back, one line per queue)
 *
 * Prints one result per line; errors as "np_steer: MSG [extack]", exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/np_kernel.h"
#include "backend/np_steer.h"
#include "model/np_flow.h"

static int die(const struct np_error *err)
{
	fprintf(stderr, "np_steer: %s%s%s%s\n", err->msg, err->extack[0] ? " [" : "",
		err->extack, err->extack[0] ? "]" : "");
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: see tests/capture/np_steer.c\n");
	return 2;
}

static uint32_t num(const char *s)
{
	return (uint32_t)strtoul(s, NULL, 0);
}

static int cmd_ins(int argc, char **argv, struct np_error *err)
{
	struct np_flow f;
	uint32_t loc = RX_CLS_LOC_ANY, target = 0, offset = 0;
	bool ctx = false;
	int i;

	if (argc < 6)
		return usage();
	if (np_flow_parse(argv[3], &f, NULL, err) < 0)
		return die(err);
	if (!strcmp(argv[4], "context"))
		ctx = true;
	else if (strcmp(argv[4], "queue"))
		return usage();
	target = num(argv[5]);
	for (i = 6; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "offset"))
			offset = num(argv[i + 1]);
		else if (!strcmp(argv[i], "loc"))
			loc = num(argv[i + 1]);
		else
			return usage();
	}
	for (unsigned k = 0; k < f.n_rules; k++) {
		struct np_ntuple_rule rule = { .fs = f.rule[k] };
		uint32_t got;

		rule.fs.location = loc;
		if (ctx)
			np_ntuple_to_context(&rule, target, offset);
		else
			np_ntuple_to_queue(&rule, target);
		if (np_ntuple_insert(argv[2], &rule, &got, err) < 0)
			return die(err);
		printf("location %u\n", got);
	}
	return 0;
}

static int cmd_list(const char *ifname, struct np_error *err)
{
	struct np_ntuple_rule *rules;
	size_t n;

	if (np_ntuple_list(ifname, &rules, &n, err) < 0)
		return die(err);
	for (size_t i = 0; i < n; i++) {
		char text[NP_FLOW_TEXT_MAX];

		if (np_flow_rule_format(&rules[i].fs, text, sizeof(text)) < 0)
			snprintf(text, sizeof(text), "(foreign match)");
		if (rules[i].fs.flow_type & FLOW_RSS)
			printf("%u %s context %u offset %llu\n", rules[i].fs.location, text,
			       rules[i].rss_context, (unsigned long long)rules[i].fs.ring_cookie);
		else
			printf("%u %s queue %llu\n", rules[i].fs.location, text,
			       (unsigned long long)rules[i].fs.ring_cookie);
	}
	free(rules);
	return 0;
}

/* ETHTOOL_PERQUEUE through the library's own path (np_queue_coal_set/read) */
static int cmd_qcoal(int argc, char **argv)
{
	uint32_t val[NP_COAL__COUNT] = { 0 }, fields = 0;
	int r;

	if (argc < 6 || (argc - 4) % 2)
		return usage();
	for (int i = 4; i + 1 < argc; i += 2) {
		int f = np_coal_field_lookup(argv[i]);

		if (f < 0)
			return usage();
		val[f] = num(argv[i + 1]);
		fields |= 1u << f;
	}
	r = np_queue_coal_set(argv[2], num(argv[3]), val, fields);
	if (r < 0) {
		fprintf(stderr, "np_steer: %s\n", strerror(-r));
		return 1;
	}
	return 0;
}

static int cmd_qcoal_get(int argc, char **argv)
{
	struct np_dev dev;
	int r;

	if (argc < 5)
		return usage();
	memset(&dev, 0, sizeof(dev));
	snprintf(dev.ifname, sizeof(dev.ifname), "%s", argv[2]);
	dev.n_rxq = num(argv[3]);
	dev.rxq = calloc(dev.n_rxq ? dev.n_rxq : 1, sizeof(*dev.rxq));
	for (int i = 4; i < argc; i++) {
		int f = np_coal_field_lookup(argv[i]);

		if (f < 0)
			return usage();
		dev.coalesce.per_queue |= 1u << f;
	}
	r = dev.rxq ? np_queue_coal_read(argv[2], &dev) : -ENOMEM;
	if (r < 0) {
		fprintf(stderr, "np_steer: %s\n", strerror(-r));
		free(dev.rxq);
		return 1;
	}
	for (unsigned q = 0; q < dev.n_rxq; q++) {
		printf("rx-%u", q);
		for (int f = 0; f < NP_COAL__COUNT; f++)
			if (dev.coalesce.per_queue & (1u << f))
				printf(" %s %u", np_coal_field_name(f), dev.rxq[q].coal[f]);
		printf("\n");
	}
	free(dev.rxq);
	return 0;
}

int main(int argc, char **argv)
{
	struct np_ethnl *nl = NULL;
	struct np_error err;
	bool use_ioctl = false;
	int r = 0;

	np_error_clear(&err);
	if (argc < 3)
		return usage();
	for (int i = 3; i < argc; i++)
		if (!strcmp(argv[i], "--ioctl"))
			use_ioctl = true;
	if (!strcmp(argv[1], "ins"))
		return cmd_ins(argc, argv, &err);
	if (!strcmp(argv[1], "qcoal"))
		return cmd_qcoal(argc, argv);
	if (!strcmp(argv[1], "qcoal-get"))
		return cmd_qcoal_get(argc, argv);
	if (!strcmp(argv[1], "del")) {
		if (argc < 4)
			return usage();
		return np_ntuple_delete(argv[2], num(argv[3]), &err) < 0 ? die(&err) : 0;
	}
	if (!strcmp(argv[1], "list"))
		return cmd_list(argv[2], &err);
	if (!use_ioctl && np_ethnl_open(&nl, &err) < 0)
		return die(&err);
	if (!strcmp(argv[1], "ctx-new")) {
		static uint32_t table[NP_RSS_CTX_INDIR_MAX];
		static struct np_rss_ctx_info main_table;
		struct np_rss_ctx_req req = { 0 };
		uint32_t start = 0, equal = 0, ctx;

		for (int i = 3; i + 1 < argc; i++) {
			if (!strcmp(argv[i], "start"))
				start = num(argv[++i]);
			else if (!strcmp(argv[i], "equal"))
				equal = num(argv[++i]);
		}
		if (equal) {
			/* Like ethtool: a table of the device's size, spread
			 * evenly over queues start .. start+equal-1. */
			r = np_rss_ctx_get(nl, argv[2], 0, &main_table, &err);
			if (r == 0) {
				for (uint32_t i = 0; i < main_table.n_indir; i++)
					table[i] = start + i % equal;
				req.indir = table;
				req.n_indir = main_table.n_indir;
			}
		}
		if (r == 0)
			r = np_rss_ctx_create(nl, argv[2], &req, &ctx, &err);
		if (r == 0)
			printf("context %u\n", ctx);
	} else if (!strcmp(argv[1], "ctx-del") && argc > 3) {
		r = np_rss_ctx_delete(nl, argv[2], num(argv[3]), &err);
	} else if (!strcmp(argv[1], "ctx-get") && argc > 3) {
		static struct np_rss_ctx_info info;

		r = np_rss_ctx_get(nl, argv[2], num(argv[3]), &info, &err);
		if (r == 0)
			printf("context %u indir %u key %u hfunc %#x\n", info.context, info.n_indir,
			       info.key_len, info.hfunc);
	} else {
		r = usage();
	}
	np_ethnl_close(nl);
	return r < 0 ? die(&err) : r;
}
