#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""napi-get of one device, independently of netpolicy: the netdev generic
netlink family (Documentation/netlink/specs/netdev.yaml) over a raw socket.
Prints one line per NAPI: "id defer-hard-irqs gro-flush-timeout" ("-" for an
attribute the kernel did not send).  Usage: napi_get.py IFINDEX"""
import os
import socket
import struct
import sys

NETLINK_GENERIC, GENL_ID_CTRL = 16, 0x10
CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 3, 1, 2
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 1, 4, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
NAPI_GET, A_IFINDEX, A_ID, A_DEFER, A_GRO = 11, 1, 2, 5, 6


def attr(kind, payload):
    hdr = struct.pack("HH", 4 + len(payload), kind)
    return hdr + payload + b"\0" * ((4 - len(payload) % 4) % 4)


def request(sk, seq, family, flags, cmd, attrs):
    body = struct.pack("BBH", cmd, 1, 0) + attrs
    sk.send(struct.pack("IHHII", 16 + len(body), family, flags, seq, 0) + body)
    out = []
    while True:
        data = sk.recv(65536)
        off = 0
        while off + 16 <= len(data):
            length, kind, _, _, _ = struct.unpack_from("IHHII", data, off)
            if kind == NLMSG_ERROR:
                err = struct.unpack_from("i", data, off + 16)[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return out
            if kind == NLMSG_DONE:
                return out
            out.append(parse(data[off + 20:off + length]))
            off += (length + 3) & ~3


def parse(buf):
    attrs, off = {}, 0
    while off + 4 <= len(buf):
        length, kind = struct.unpack_from("HH", buf, off)
        attrs[kind & 0x3fff] = buf[off + 4:off + length]
        off += (length + 3) & ~3
    return attrs


def num(raw):
    if raw is None:
        return "-"
    return str(struct.unpack("I" if len(raw) == 4 else "Q", raw)[0])


def main():
    sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sk.bind((0, 0))
    fam = request(sk, 1, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, CTRL_CMD_GETFAMILY,
                  attr(CTRL_ATTR_FAMILY_NAME, b"netdev\0"))
    family = struct.unpack("H", fam[0][CTRL_ATTR_FAMILY_ID][:2])[0]
    napis = request(sk, 2, family, NLM_F_REQUEST | NLM_F_DUMP, NAPI_GET,
                    attr(A_IFINDEX, struct.pack("I", int(sys.argv[1]))))
    for n in sorted(napis, key=lambda a: num(a.get(A_ID))):
        print(num(n.get(A_ID)), num(n.get(A_DEFER)), num(n.get(A_GRO)))


if __name__ == "__main__":
    main()
