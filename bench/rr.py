#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A TCP request/response workload for bench/try_veth.sh (netperf's TCP_RR
in miniature, as Debian 12 has no netperf): 64-byte requests, each
answered before the next is sent, on one connection.

usage: rr.py server PORT                   answer until killed
       rr.py client HOST PORT SECS [--json] print "transactions N" and
                                           "mean_us X" (--json: one object)
"""
import json
import socket
import sys
import time

SIZE = 64


def recv_exact(s, n):
    buf = b''
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def server(port):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('0.0.0.0', port))
    ls.listen(8)
    while True:
        c, _ = ls.accept()
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            m = recv_exact(c, SIZE)
            if m is None:
                break
            c.sendall(m)
        c.close()


def client(host, port, secs, as_json=False):
    s = socket.create_connection((host, port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    msg = b'x' * SIZE
    n = 0
    start = time.monotonic()
    end = start + secs
    while time.monotonic() < end:
        s.sendall(msg)
        if recv_exact(s, SIZE) is None:
            sys.exit('server closed the connection')
        n += 1
    took = time.monotonic() - start
    s.close()
    if as_json:
        print(json.dumps({'transactions': n, 'mean_us': round(took / n * 1e6, 2)}))
    else:
        print(f'transactions {n}')
        print(f'mean_us {took / n * 1e6:.2f}')


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'server':
        server(int(sys.argv[2]))
    elif len(sys.argv) in (5, 6) and sys.argv[1] == 'client' and sys.argv[5:] in ([], ['--json']):
        client(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), len(sys.argv) == 6)
    else:
        sys.exit(__doc__)
