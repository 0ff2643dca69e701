# A small threaded TCP echo on 127.0.0.1: sockets and threads.
import socket
import sys
import threading

srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(4)
port = srv.getsockname()[1]


def serve():
    for _ in range(3):
        c, _ = srv.accept()
        c.sendall(c.recv(64).upper())
        c.close()


t = threading.Thread(target=serve)
t.start()
out = []
for i in range(3):
    c = socket.create_connection(("127.0.0.1", port))
    c.sendall(b"ping%d" % i)
    out.append(c.recv(64).decode())
    c.close()
t.join()
print(" ".join(out))
sys.exit(0 if out == ["PING0", "PING1", "PING2"] else 1)
