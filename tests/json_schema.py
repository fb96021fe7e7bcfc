#!/usr/bin/env python3
"""Validate netpolicy's --json documents against doc/schema/ (netpolicy-json(7)).

  json_schema.py SCHEMA_DIR --captured DIR   every NAME.out (stdout of a
      netpolicy --json run) against the schema of its command (NAME.args,
      one argument a line); failures as TAP comments, exit status 1
  json_schema.py SCHEMA_DIR SCHEMA FILE...   each FILE against SCHEMA
      (a .jsonl FILE: each line)
  json_schema.py SCHEMA_DIR --man JSON7 MODEL5   the page and the schemas
      agree: every member a schema names (and every value it lists) is in
      bold on netpolicy-json(7)
      (the device state's on netpolicy-model(5)), and every member-like
      word in bold on netpolicy-json(7) is a member, value or command the
      schemas know

One process for a whole bats file: tests/run-bats calls it once at the end.
"""
import json
import os
import re
import shlex
import sys

import jsonschema

COMMANDS = ("show", "set", "reset", "check", "confirm", "plan", "policies", "watch", "try",
            "status")


# The schemas' $id: where the package installs them, as an absolute URI
# (a relative $id is resolved against wherever a validator found the file).
SCHEMA_BASE = "file:///usr/share/netpolicy/schema/"


def load_store(schema_dir):
    store = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".json"):
            with open(os.path.join(schema_dir, name)) as f:
                store[name] = json.load(f)
            if store[name].get("$id") != SCHEMA_BASE + name:
                sys.exit("%s: $id is not %s%s" % (name, SCHEMA_BASE, name))
    return store


def validator_for(store, name):
    """A validator of schema NAME that resolves the others by file name."""
    schema = store[name]
    cls = jsonschema.validators.validator_for(schema)
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18
        from referencing.jsonschema import DRAFT202012

        registry = Registry().with_resources(
            (SCHEMA_BASE + n, Resource.from_contents(s, default_specification=DRAFT202012))
            for n, s in store.items())
        return cls(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10
        resolver = jsonschema.RefResolver(
            base_uri=SCHEMA_BASE + name, referrer=schema,
            store={SCHEMA_BASE + n: s for n, s in store.items()})
        return cls(schema, resolver=resolver)


def schema_of(args, doc):
    """The schema a document of the command line ARGS must meet."""
    cmd = next((a for a in args if a in COMMANDS), None)
    if cmd == "show":
        return "show-all.json" if "devices" in doc else "show.json"
    if cmd in ("set", "reset"):
        if "n_steps" not in doc:
            return "reset-untouched.json"
        return "dry-run.json" if doc.get("dry_run") else "result.json"
    if cmd == "watch":
        return "watch-event.json"
    if cmd in ("check", "confirm", "plan", "policies", "try", "status"):
        return cmd + ".json"
    return None


def documents(text, lines):
    """The documents of one output: one, or one a line (JSON Lines)."""
    if lines:
        return [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    return [json.loads(text)] if text.strip() else []


def errors_of(validator, doc):
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message)
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))]


def check_captured(store, capdir):
    validators = {}
    failed = checked = 0
    for name in sorted(os.listdir(capdir)):
        if not name.endswith(".out"):
            continue
        base = os.path.join(capdir, name[:-4])
        with open(base + ".args") as f:
            args = f.read().splitlines()
        with open(base + ".out") as f:
            text = f.read()
        cmd = " ".join(a for a in args if "/" not in a)
        try:
            docs = documents(text, "watch" in args)
        except ValueError as e:
            print("# json schema: netpolicy %s: not JSON: %s" % (cmd, e))
            failed += 1
            continue
        for doc in docs:
            schema = schema_of(args, doc)
            if schema is None:
                print("# json schema: netpolicy %s: no schema for this command" % cmd)
                failed += 1
                continue
            if schema not in validators:
                validators[schema] = validator_for(store, schema)
            errs = errors_of(validators[schema], doc)
            checked += 1
            if errs:
                failed += 1
                print("# json schema: netpolicy %s: not valid against %s:" % (cmd, schema))
                for e in errs[:10]:
                    print("#   %s" % e)
    print("# json schema: %d documents validated, %d failed" % (checked, failed))
    return 1 if failed else 0


def check_files(store, schema, files):
    v = validator_for(store, schema)
    rc = 0
    for path in files:
        with open(path) as f:
            docs = documents(f.read(), path.endswith(".jsonl"))
        if not docs:
            print("%s: no document" % path)
            rc = 1
        for doc in docs:
            for e in errors_of(v, doc):
                print("%s: %s: %s" % (path, schema, e))
                rc = 1
    return rc


# Bold words on the page that are neither members nor values: commands,
# options' words and prose set in bold.
PROSE = {"N", "FILE", "PATH", "REASON", "CLASS", "SPEC", "CLASS:SPEC", "schema", "json",
         "dry", "run", "strict", "cpus", "errors", "np_policy_from_json", "netpolicy",
         "null", "true", "false", "jq", "with", "a", "device", "without", "dry-run",
         # keys of a policy's values (netpolicy-policy(5)), triggers of watch
         "flow", "default-class", "link", "up", "overrun",
         # a field of per-queue coalescing (netpolicy-model(5))
         "rx-usecs"}
# What show adds to the device state (netpolicy-model(5) has the rest).
SHOW_OWN = {"policy", "policy_cpus", "policy_missing", "mixed", "drift", "other_owners"}
# The device state's knobs, typed in show.json's $defs: their members and
# values are netpolicy-model(5)'s too.
STATE_DEFS = ("unsupported", "link", "channels", "rings", "coalesce_fields", "coalesce_names",
              "coalesce", "features", "rss", "pm_qos")


def bold_words(page):
    """The words set in bold (macros .B .BR .RB .BI .IB, and \\fB...\\f), and
    the members of the page's JSON examples and lists ("name": ...)."""
    words = set()
    with open(page) as f:
        raw = f.read().replace("\\-", "-").replace("\\(aq", "'")
    for line in raw.splitlines():
        line = line.replace("\\(dq", "\x01")	# a quote in the text, none of groff's
        m = re.match(r"^\.(B|BR|RB|BI|IB)\s+(.*)$", line)
        bold = []
        if m:
            try:
                args = shlex.split(m.group(2))
            except ValueError:
                args = m.group(2).split()
            first = 1 if m.group(1) in ("RB", "IB") else 0
            step = 1 if m.group(1) == "B" else 2
            bold = args[first::step]
        bold += re.findall(r"\\fB(.*?)\\f", line)
        for b in bold:
            b = b.replace("\x01", " ").replace("\\", " ")
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_:-]*", b))
    text = raw.replace("\\(dq", '"')
    keys = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_-]*)"\s*"?\s*[:,]', text))
    return words, keys


def schema_names(node, members, values, path=""):
    """Property names (members) and const/enum strings (values), recursively."""
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            members.add((k, path))
        for k in ("const", "enum"):
            vals = node.get(k)
            for v in (vals if isinstance(vals, list) else [vals]):
                if isinstance(v, str):
                    values.add((v, path))
        for k, v in node.items():
            schema_names(v, members, values, path + "/" + k)
    elif isinstance(node, list):
        for v in node:
            schema_names(v, members, values, path)


def check_man(store, json7, model5):
    page, keys = bold_words(json7)
    model = set.union(*bold_words(model5))
    members, values = set(), set()
    for name, schema in store.items():
        schema_names(schema, members, values, name)
    rc = 0
    # the device state's members, and those of its topology's CPUs (llc,
    # cluster), are netpolicy-model(5)'s
    topology = "show.json/$defs/device/properties/topology"
    knobs = tuple("show.json/$defs/%s" % d for d in STATE_DEFS)

    def of_state(p):
        return p.startswith(topology) or p.startswith(knobs)
    state = {k for k, p in members if (p == "show.json/$defs/device" and k not in SHOW_OWN)
             or of_state(p)}
    for k, p in sorted(members):
        if k in state or k == "schema":
            ok = k in model or k == "schema"
        else:
            ok = k in page or k in keys
        if not ok:
            print("%s: member %s (%s) is not documented" %
                  (model5 if k in state else json7, k, p))
            rc = 1
    for v, p in sorted(values):
        if not (v in model if of_state(p) else v in page):
            print("%s: value %s is not documented" % (model5 if of_state(p) else json7, v))
            rc = 1
    known = {k for k, _ in members} | {v for v, _ in values} | set(COMMANDS) | PROSE
    for w in sorted(page):
        member_like = re.fullmatch(r"[a-z][a-z0-9_-]*", w) and not w.startswith("netpolicy")
        if member_like and w not in known:
            print("%s: %s is in bold but no schema has it" % (json7, w))
            rc = 1
    return rc


def main(argv):
    store = load_store(argv[1])
    for name in store:
        jsonschema.validators.validator_for(store[name]).check_schema(store[name])
    if argv[2] == "--man":
        return check_man(store, argv[3], argv[4])
    if argv[2] == "--captured":
        return check_captured(store, argv[3])
    return check_files(store, argv[2], argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
