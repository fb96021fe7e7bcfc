#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of netpolicy; same licence as the rest of the project (COPYING).
"""Ansible module: bring one network device to a netpolicy policy."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: netpolicy
short_description: Tune a network device to a netpolicy workload policy
description:
  - Runs the C(netpolicy) command line tool on the managed host to bring
    one network device to a workload policy (C(cpu), C(latency),
    C(busy-poll), C(throughput), C(mixed) or a custom policy), or to
    reset it to how it was before netpolicy changed it.
  - netpolicy plans the change and applies it atomically; a failed apply
    is rolled back by netpolicy itself (exit status 3).
  - The module always calls netpolicy with C(--json) and an argument
    vector, never through a shell.
  - In check mode the module runs C(set --dry-run) (or C(reset --dry-run))
    and changes nothing; the task is changed when the plan has steps.
  - Switching the device to another policy (or other I(cpus)) is a change
    even when the settings are already the same: the task is changed and
    the diff shows the policy line, since netpolicy's record (what
    C(check), C(plan), C(watch) and C(reset) go by) changes.
  - With C(--diff) the planned or applied changes are returned as a
    before/after text, one line per changed value.
version_added: "0.1.0"
author:
  - netpolicy developers (!UNKNOWN)
options:
  device:
    description: The network interface to tune, for example C(eth0).
    type: str
    required: true
  policy:
    description:
      - The policy to apply (netpolicy-policies(7)). Required when
        I(state=present), ignored when I(state=absent).
    type: str
  state:
    description:
      - C(present) applies I(policy) (C(netpolicy DEVICE set POLICY)).
      - C(absent) returns the device to its state before netpolicy
        (C(netpolicy DEVICE reset)); a device netpolicy never changed is
        left alone and reported unchanged.
    type: str
    choices: [present, absent]
    default: present
  confirm:
    description:
      - Apply tentatively (C(set --confirm SECONDS)); netpolicy rolls the
        change back after that many seconds unless C(netpolicy DEVICE
        confirm) comes first. Not used in check mode or with
        I(state=absent).
    type: int
  cpus:
    description:
      - The CPUs the policy may use, as a CPU list (C(2-7), C(0,4-5))
        passed as C(--cpus). Default is netpolicy's own (the online CPUs
        that are not isolated).
    type: str
  state_dir:
    description:
      - netpolicy's state directory (C(--state-dir)), with the locks, journals and
        the snapshots C(reset) returns to. netpolicy's default
        (C(/run/netpolicy)) when not given.
    type: path
  netpolicy_bin:
    description: The netpolicy executable, a name looked up in C(PATH) or a path.
    type: str
    default: netpolicy
  command_prefix:
    description:
      - Words run before the netpolicy executable, for example
        C([ip, netns, exec, NAME]) to tune a device in another network
        namespace.
    type: list
    elements: str
    default: []
  fail_on_error:
    description:
      - When C(false), a device that netpolicy could not change and left as
        it was (exit status 1, for example a missing device; 3, the apply
        was rolled back; 7, the device was busy) does not fail the task;
        it returns C(failed=false), C(skipped=true), the error in I(msg)
        and the exit status in I(rc), so one absent NIC does not fail the
        host.
      - Usage errors (exit 2) and outcomes that leave the device or the
        state directory in doubt (4, 6, 9) always fail.
    type: bool
    default: true
notes:
  - Supports check mode and diff mode.
  - The exit statuses are netpolicy's (netpolicy(8), EXIT STATUS) and are
    returned as I(rc).
requirements:
  - netpolicy on the managed host
seealso:
  - module: netpolicy.netpolicy.netpolicy_facts
'''

EXAMPLES = r'''
- name: Throughput policy on the storage NIC
  netpolicy.netpolicy.netpolicy:
    device: eth1
    policy: throughput

- name: Latency policy on CPUs 2-7, rolled back unless confirmed in 120 s
  netpolicy.netpolicy.netpolicy:
    device: eth2
    policy: latency
    cpus: "2-7"
    confirm: 120

- name: Put eth3 back the way it was before netpolicy
  netpolicy.netpolicy.netpolicy:
    device: eth3
    state: absent

- name: Tune a NIC that not every host has, without failing the others
  netpolicy.netpolicy.netpolicy:
    device: ens5f1
    policy: throughput
    fail_on_error: false
  register: np_result

- name: A device in another network namespace, private state directory
  netpolicy.netpolicy.netpolicy:
    device: v0
    policy: cpu
    command_prefix: [ip, netns, exec, lab]
    state_dir: /var/tmp/netpolicy-lab
'''

RETURN = r'''
plan:
  description:
    - netpolicy's JSON document for the command (netpolicy-json(7)),
      the plan of a dry run in check mode, the result of the apply
      otherwise (steps, notes, C(changed), C(writes), C(rolled_back)).
    - Absent when netpolicy printed no document (an error before any plan).
  returned: when netpolicy printed a document
  type: dict
  sample:
    ifname: eth1
    policy: throughput
    n_steps: 1
    steps:
      - step: 0
        knob: channels
        changes:
          - {what: rx, type: uint, before: 4, after: 2}
    dry_run: false
    changed: true
rc:
  description: netpolicy's exit status (netpolicy(8), EXIT STATUS).
  returned: always
  type: int
  sample: 0
cmd:
  description: The command that was run, as an argument vector.
  returned: always
  type: list
  elements: str
msg:
  description: netpolicy's error message (its last line on standard error) when it failed.
  returned: when netpolicy exited non-zero
  type: str
  sample: "netpolicy: eth9: no such device"
skipped:
  description: True when I(fail_on_error=false) turned an error into a skip.
  returned: when skipped
  type: bool
diff:
  description:
    - With C(--diff), the changed values as text, one line per value
      (C(KNOB WHAT) then the value), before and after.
  returned: in diff mode
  type: dict
'''

import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.netpolicy.netpolicy.plugins.module_utils.netpolicy import netpolicy_path

# Exit statuses after which the device is as it was: with fail_on_error
# false they skip the device instead of failing the host.
SOFT_EXITS = {
    1: 'error, nothing changed',
    3: 'the apply failed and was rolled back',
    7: 'the device is busy (another netpolicy holds it)',
}
EXIT_MEANING = {
    2: 'usage error, nothing changed',
    4: 'the rollback is incomplete (netpolicy DEVICE reset retries it)',
    5: 'drift found',
    6: 'changed, but a record or the output could not be written',
    8: 'some devices changed, others failed',
    9: "an interrupted run's journal in a state directory that cannot be written",
    10: "try's command failed",
}


def value_text(value):
    """One value of a step's change as a diff shows it."""
    if value is None:
        return '(unknown)'
    if isinstance(value, bool):
        return 'on' if value else 'off'
    if isinstance(value, list):
        return ' '.join(value_text(v) for v in value)
    if value == '':
        return '(none)'
    return str(value)


def plan_diff(device, plan, policy, record=None):
    """Before/after text of a plan's changes, one line per changed value;
    record: the (before, after) lines of a policy switch, first."""
    before = [record[0]] if record else []
    after = [record[1]] if record else []
    for step in (plan or {}).get('steps') or []:
        knob = step.get('knob', '?')
        for change in step.get('changes') or []:
            label = '%s %s' % (knob, change.get('what', ''))
            before.append('%s: %s\n' % (label, value_text(change.get('before'))))
            after.append('%s: %s\n' % (label, value_text(change.get('after'))))
    return {
        'before_header': '%s (now)' % device,
        'after_header': '%s (%s)' % (device, policy),
        'before': ''.join(before),
        'after': ''.join(after),
    }


def error_line(stderr, rc):
    """netpolicy's message: the last non-empty line it wrote on stderr."""
    lines = [l.strip() for l in (stderr or '').splitlines() if l.strip()]
    if lines:
        return lines[-1]
    meaning = SOFT_EXITS.get(rc) or EXIT_MEANING.get(rc) or 'failed'
    return 'netpolicy exited %d: %s' % (rc, meaning)


def parse_document(stdout):
    text = (stdout or '').strip()
    if not text:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def recorded_policy(module, base, device):
    """The policy and CPUs netpolicy's record gives the device (show), or
    (None, None): no record, or no answer (the set says why)."""
    rc, stdout, stderr = module.run_command(base + ['--json', device, 'show'], check_rc=False)
    doc = parse_document(stdout) if rc == 0 else None
    if not doc:
        return None, None
    return doc.get('policy'), doc.get('policy_cpus')


def policy_line(name, cpus):
    """A policy and its CPUs as the diff shows them."""
    return 'policy: %s%s\n' % (name, ' (cpus %s)' % cpus if cpus else '')


def record_switch(module, base, device, policy, cpus):
    """('policy: OLD', 'policy: NEW') lines when setting policy changes the
    device's record (another policy, or other CPUs) even where the settings
    are already the same and the plan has no step; else None."""
    old_policy, old_cpus = recorded_policy(module, base, device)
    if old_policy is None:
        return None
    if old_policy == policy and (cpus or None) == (old_cpus or None):
        return None
    return policy_line(old_policy, old_cpus), policy_line(policy, cpus)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            device=dict(type='str', required=True),
            policy=dict(type='str'),
            state=dict(type='str', default='present', choices=['present', 'absent']),
            confirm=dict(type='int'),
            cpus=dict(type='str'),
            state_dir=dict(type='path'),
            netpolicy_bin=dict(type='str', default='netpolicy'),
            command_prefix=dict(type='list', elements='str', default=[]),
            fail_on_error=dict(type='bool', default=True),
        ),
        required_if=[('state', 'present', ('policy',))],
        supports_check_mode=True,
    )
    p = module.params
    device = p['device']
    present = p['state'] == 'present'

    if p['confirm'] is not None and p['confirm'] <= 0:
        module.fail_json(msg='confirm must be a number of seconds greater than 0', rc=2)

    base = list(p['command_prefix']) + [netpolicy_path(module, p['netpolicy_bin'])]
    if p['state_dir']:
        base += ['--state-dir', p['state_dir']]
    switch = record_switch(module, base, device, p['policy'], p['cpus']) if present else None
    argv = base + ['--json', device]
    if present:
        argv += ['set', p['policy']]
        if p['cpus']:
            argv += ['--cpus', p['cpus']]
        if p['confirm'] is not None and not module.check_mode:
            argv += ['--confirm', str(p['confirm'])]
    else:
        argv += ['reset']
    if module.check_mode:
        argv += ['--dry-run']

    rc, stdout, stderr = module.run_command(argv, check_rc=False)
    plan = parse_document(stdout)
    result = dict(changed=False, rc=rc, cmd=argv)
    if plan is not None:
        result['plan'] = plan

    if rc != 0:
        result['msg'] = error_line(stderr, rc)
        result['stderr'] = stderr
        if rc in SOFT_EXITS and not p['fail_on_error']:
            # said outright: Ansible takes a result with a non-zero rc and
            # no failed member as failed
            result['failed'] = False
            result['skipped'] = True
            module.exit_json(**result)
        # a failed apply that netpolicy rolled back still reports what it
        # tried; the device may have changed only when the rollback failed
        if rc in (4, 6):
            result['changed'] = True
        module.fail_json(**result)

    if plan is None:
        module.fail_json(msg='netpolicy printed no JSON document', stdout=stdout,
                         stderr=stderr, **result)

    steps = plan.get('steps') or []
    if module.check_mode:
        # a reset of a device netpolicy never changed has no n_steps
        result['changed'] = int(plan.get('n_steps', len(steps))) > 0
    else:
        result['changed'] = bool(plan.get('changed'))
    # a switch to a policy of the same settings writes no value but changes
    # the record: what check, plan, watch and reset go by from now on
    result['changed'] = result['changed'] or switch is not None
    if module._diff and (result['changed'] or steps):
        result['diff'] = plan_diff(device, plan, p['policy'] if present else 'reset', switch)
    module.exit_json(**result)


if __name__ == '__main__':
    main()
