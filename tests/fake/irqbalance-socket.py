#!/usr/bin/env python3
"""A stand-in for irqbalance's control socket, for tests/cli/irqbalance.bats.

Usage: irqbalance-socket.py SOCKET LOG [BANNED...]

Speaks the protocol of irqbalance.c (sock_handle): one request per
connection, refused without SCM_CREDENTIALS of uid 0; "setup" answers
"SLEEP 10 IRQ n LOAD 0 DIFF 0 CLASS 0 ... BANNED 0", "settings ban irqs ..."
replaces the banned list.  Every request is appended to LOG, one per line.
"""
import os
import socket
import struct
import sys

path, log = sys.argv[1], sys.argv[2]
banned = [int(x) for x in sys.argv[3:]]
try:
    os.unlink(path)
except FileNotFoundError:
    pass
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
srv.bind(path)
srv.listen(1)
open(path + ".ready", "w").close()
while True:
    conn, _ = srv.accept()
    msg, anc, _, _ = conn.recvmsg(500, socket.CMSG_SPACE(12))
    uid = None
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
            _, uid, _ = struct.unpack("iII", data[:12])
    text = msg.decode()
    with open(log, "a") as f:
        f.write(("%s uid=%s\n") % (text, uid))
    if uid == 0:
        if text.startswith("setup"):
            irqs = "".join("IRQ %d LOAD 0 DIFF 0 CLASS 0 " % i for i in banned)
            conn.sendall(("SLEEP 10 %sBANNED 00000000" % irqs).encode())
        elif text.startswith("settings ban irqs "):
            banned = [int(x) for x in text[len("settings ban irqs "):].split()]
    conn.close()
