#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of netpolicy; same licence as the rest of the project (COPYING).
"""Ansible module: netpolicy's view of the host's network devices as facts."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r'''
---
module: netpolicy_facts
short_description: netpolicy's state of the network devices, as facts
description:
  - Runs C(netpolicy show --json) on the managed host (every device, or
    C(netpolicy DEVICE show --json) for each of I(devices)) and returns the
    documents as the fact C(netpolicy), a dictionary keyed by interface
    name.
  - Each value is netpolicy's show document (netpolicy-json(7)) with the
    device's channels, rings, coalescing, queues and IRQs, and the
    C(policy) netpolicy applied to it (null when none), C(policy_cpus),
    C(policy_missing) (true when that custom policy's file is gone since)
    and C(drift).
  - Reads only; never changed. Runs in check mode too.
version_added: "0.1.0"
author:
  - netpolicy developers (!UNKNOWN)
options:
  devices:
    description:
      - The interfaces to describe. Every device netpolicy sees when empty.
      - A device named here that does not exist fails the task.
    type: list
    elements: str
    default: []
  state_dir:
    description: netpolicy's state directory (C(--state-dir)); its default when not given.
    type: path
  netpolicy_bin:
    description: The netpolicy executable, a name looked up in C(PATH) or a path.
    type: str
    default: netpolicy
  command_prefix:
    description: Words run before the netpolicy executable (for example C([ip, netns, exec, NAME])).
    type: list
    elements: str
    default: []
notes:
  - Supports check mode.
requirements:
  - netpolicy on the managed host
seealso:
  - module: netpolicy.netpolicy.netpolicy
'''

EXAMPLES = r'''
- name: What netpolicy sees
  netpolicy.netpolicy.netpolicy_facts:

- name: Only the storage NICs
  netpolicy.netpolicy.netpolicy_facts:
    devices: [eth1, eth2]

- name: Say which policy eth1 has
  ansible.builtin.debug:
    msg: "eth1: {{ ansible_facts.netpolicy.eth1.policy | default('none', true) }}"
'''

RETURN = r'''
ansible_facts:
  description: Facts added to the host.
  returned: always
  type: complex
  contains:
    netpolicy:
      description:
        - One entry per device, keyed by interface name; the value is
          netpolicy's show document for the device (netpolicy-json(7)).
      returned: always
      type: dict
      sample:
        eth1:
          ifname: eth1
          driver: ixgbe
          policy: throughput
          policy_cpus: null
          policy_missing: false
          drift: 0
rc:
  description: netpolicy's exit status of the last command run.
  returned: always
  type: int
'''

import json

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.netpolicy.netpolicy.plugins.module_utils.netpolicy import netpolicy_path


def main():
    module = AnsibleModule(
        argument_spec=dict(
            devices=dict(type='list', elements='str', default=[]),
            state_dir=dict(type='path'),
            netpolicy_bin=dict(type='str', default='netpolicy'),
            command_prefix=dict(type='list', elements='str', default=[]),
        ),
        supports_check_mode=True,
    )
    p = module.params
    base = list(p['command_prefix']) + [netpolicy_path(module, p['netpolicy_bin'])]
    if p['state_dir']:
        base += ['--state-dir', p['state_dir']]
    base += ['--json']

    def show(words):
        argv = base + words
        rc, stdout, stderr = module.run_command(argv, check_rc=False)
        if rc != 0:
            lines = [l.strip() for l in (stderr or '').splitlines() if l.strip()]
            module.fail_json(msg=lines[-1] if lines else 'netpolicy exited %d' % rc,
                             rc=rc, cmd=argv, stderr=stderr)
        try:
            doc = json.loads(stdout)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            module.fail_json(msg='netpolicy printed no JSON document', rc=rc, cmd=argv,
                             stdout=stdout)
        return doc

    facts = {}
    if p['devices']:
        for dev in p['devices']:
            doc = show([dev, 'show'])
            facts[doc.get('ifname', dev)] = doc
    else:
        for doc in show(['show']).get('devices') or []:
            if isinstance(doc, dict) and doc.get('ifname'):
                facts[doc['ifname']] = doc

    module.exit_json(changed=False, rc=0, ansible_facts={'netpolicy': facts})


if __name__ == '__main__':
    main()
