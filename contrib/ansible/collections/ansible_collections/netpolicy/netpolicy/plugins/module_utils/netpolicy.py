# -*- coding: utf-8 -*-
# Part of netpolicy; same licence as the rest of the project (COPYING).
"""What the netpolicy modules share: finding the netpolicy executable."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

# netpolicy is a system tool: the sbin directories are not in every
# user's PATH (a become to root keeps the caller's PATH on some systems)
SBIN_DIRS = ['/usr/sbin', '/sbin', '/usr/local/sbin']

# Not netpolicy's own exit statuses (netpolicy(8), EXIT STATUS: 2 is its
# usage error): a shell's "command not found".
RC_NOT_FOUND = 127


def netpolicy_path(module, name):
    """The netpolicy executable: a name looked up in PATH and the sbin
    directories, or a path; fails the task (rc 127) when there is none."""
    if '/' in name:
        path = name if os.path.isfile(name) and os.access(name, os.X_OK) else None
    else:
        path = module.get_bin_path(name, required=False, opt_dirs=SBIN_DIRS)
    if not path:
        module.fail_json(msg='netpolicy executable not found: %s (install netpolicy on the '
                         'managed host, or set netpolicy_bin)' % name, rc=RC_NOT_FOUND)
    return path
