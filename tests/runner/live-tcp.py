# SPDX-License-Identifier: LGPL-2.1-or-later
# Loopback TCP for the live profile tests: 'server PORTFILE' serves one
# client on 127.0.0.1 (answering upper case), 'client PORT' talks to it.
# Both give up after 10 seconds.
import os
import socket
import sys


def server(portfile):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        s.settimeout(10)
        tmp = portfile + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % s.getsockname()[1])
        os.rename(tmp, portfile)
        conn, _ = s.accept()
        with conn:
            conn.settimeout(10)
            data = conn.recv(64)
            conn.sendall(data.upper())
    print("server: served", data.decode())
    return 0


def client(port):
    with socket.create_connection(("127.0.0.1", int(port)), timeout=10) as c:
        c.sendall(b"ping")
        got = c.recv(64)
    print("client: got", got.decode())
    return 0 if got == b"PING" else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "server":
        sys.exit(server(sys.argv[2]))
    if len(sys.argv) == 3 and sys.argv[1] == "client":
        sys.exit(client(sys.argv[2]))
    sys.exit("usage: live-tcp.py server PORTFILE | client PORT")
