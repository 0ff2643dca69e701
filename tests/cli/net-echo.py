# SPDX-License-Identifier: LGPL-2.1-or-later
# A small network service for the sample profiles: an epoll-driven echo
# server on loopback (TCP over IPv4 and IPv6, UDP, AF_UNIX) and its clients.
import os
import selectors
import socket
import sys
import tempfile
import threading


def serve(listeners, udp, rounds):
    sel = selectors.EpollSelector()
    for s in listeners:
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, "listen")
    sel.register(udp, selectors.EVENT_READ, "udp")
    done = 0
    while done < rounds:
        for key, _ in sel.select(timeout=10):
            s = key.fileobj
            if key.data == "listen":
                conn, _ = s.accept()
                conn.setblocking(True)
                sel.register(conn, selectors.EVENT_READ, "conn")
            elif key.data == "udp":
                data, peer = s.recvfrom(64)
                s.sendto(data, peer)
                done += 1
            else:
                data = s.recv(64)
                if data:
                    s.sendall(data)
                else:
                    sel.unregister(s)
                    s.close()
                    done += 1
    sel.close()


def client(family, addr, kind=socket.SOCK_STREAM):
    with socket.socket(family, kind) as c:
        c.settimeout(10)
        if kind == socket.SOCK_DGRAM:
            c.sendto(b"ping", addr)
            return c.recvfrom(64)[0]
        c.connect(addr)
        c.sendall(b"ping")
        return c.recv(64)


def main():
    d = tempfile.mkdtemp()
    path = os.path.join(d, "echo.sock")
    v4 = socket.create_server(("127.0.0.1", 0))
    v6 = socket.create_server(("::1", 0), family=socket.AF_INET6)
    ux = socket.socket(socket.AF_UNIX)
    ux.bind(path)
    ux.listen()
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    t = threading.Thread(target=serve, args=([v4, v6, ux], udp, 4))
    t.start()
    got = [
        client(socket.AF_INET, v4.getsockname()),
        client(socket.AF_INET6, v6.getsockname()[:2]),
        client(socket.AF_UNIX, path),
        client(socket.AF_INET, udp.getsockname(), socket.SOCK_DGRAM),
    ]
    t.join()
    os.unlink(path)
    os.rmdir(d)
    print("echo:", " ".join(g.decode() for g in got))
    return 0 if got == [b"ping"] * 4 else 1


if __name__ == "__main__":
    sys.exit(main())
