#!/usr/bin/env python3
"""A gRPC bot that speaks HTTP/2 by hand (crates/cli/tests/red_team.rs): it
keeps STREAMS `Play` calls open on the referee without ever saying Hello
(opening a new one as each is closed), for SECONDS, then plays.

    h2flood.py WHISTLE STREAMS SECONDS
"""
import os, socket, struct, sys, threading, time

whistle, want, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
address = os.environ["WHISTLE_ADDRESS"][len("unix:"):]


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def lit(index, value):
    # A literal header field without indexing, its name from the static table.
    v = value.encode()
    head = bytes([index]) if index < 15 else bytes([15, index - 15])
    return head + bytes([len(v)]) + v


HEADERS = (b"\x83\x86" + lit(4, "/whistle.v1.Referee/Play") + lit(1, "localhost")
           + lit(31, "application/grpc") + b"\x00\x02te\x08trailers")


def connection(n, until, stats):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(address)
    s.settimeout(1)
    lock = threading.Lock()
    s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
    state = {"next": 1, "open": 0}

    def open_streams():
        with lock:
            while state["open"] < n:
                s.sendall(frame(1, 4, state["next"], HEADERS))
                state["next"] += 2
                state["open"] += 1
                stats["opened"] += 1

    def reader():
        buf = b""
        while time.time() < until:
            try:
                data = s.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not data:
                return
            buf += data
            while len(buf) >= 9:
                length = int.from_bytes(buf[:3], "big")
                if len(buf) < 9 + length:
                    break
                kind, flags = buf[3], buf[4]
                stream = int.from_bytes(buf[5:9], "big") & 0x7FFFFFFF
                buf = buf[9 + length:]
                if kind == 4 and not flags & 1:
                    with lock:
                        s.sendall(frame(4, 1, 0))
                elif kind == 6 and not flags & 1:
                    with lock:
                        s.sendall(frame(6, 1, 0, b"\0" * 8))
                elif stream and (kind == 3 or (kind in (0, 1) and flags & 1)):
                    with lock:
                        state["open"] -= 1
                    stats["closed"] += 1

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    while time.time() < until:
        try:
            open_streams()
        except OSError:
            pass
        time.sleep(0.05)
    s.close()


until = time.time() + seconds
stats = {"opened": 0, "closed": 0}
threads = [threading.Thread(target=connection, args=(min(200, want - i * 200), until, stats))
           for i in range((want + 199) // 200)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"opened {stats['opened']} Play streams, {stats['closed']} closed by the referee", file=sys.stderr, flush=True)
os.execv(whistle, [whistle, "bot", "--bot", "random"])
