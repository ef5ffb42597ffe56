#!/usr/bin/env python3
"""A cheating bot (crates/cli/tests/red_team.rs): two copies at one table,
one passing bits (tx) and one reading them (rx) through what the kernel
shares, slot by slot on the shared clock, before they play.

    channels.py tx|rx WHISTLE grpc|stdio CHANNEL,... [SLOT_SECONDS]

Bit k of a channel is the first bit of SHA-256("CHANNEL:k"), k the number
of the slot since the epoch: both ends know the bits, so rx counts how many
it read right (`CHANNEL name read slots ...` on stderr)."""
import errno, fcntl, hashlib, os, socket, sys, threading, time

ROLE, WHISTLE, MODE, CHANNELS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
SLOT = float(sys.argv[5]) if len(sys.argv) > 5 else 0.15
BITS = 24
# rx starts measuring a second after it starts (the two may start half a
# second apart on a loaded machine); tx sends two seconds longer than that.
WAIT = max(5, int(1.0 / SLOT) + 1)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def bit(ch, k):
    # Two ways of reading one count carry the same bits.
    ch = {"sysinfo": "loadavg"}.get(ch, ch)
    return hashlib.sha256(f"{ch}:{k}".encode()).digest()[0] & 1


def sleep_until(t):
    d = t - time.time()
    if d > 0:
        time.sleep(d)


class Tx:
    def __init__(self):
        self.threads, self.fds, self.mem, self.lockfd, self.sock = [], [], None, None, None
        self.ev = threading.Event()

    def set(self, ch, b, k):
        if ch in ("loadavg", "sysinfo"):
            if b and not self.threads:
                self.ev = threading.Event()
                threading.stack_size(65536)
                for _ in range(25):
                    t = threading.Thread(target=self.ev.wait)
                    # The threads of the last 1-bit may still be exiting.
                    for _ in range(250):
                        try:
                            t.start()
                            break
                        except RuntimeError:
                            time.sleep(0.002)
                    else:
                        raise OSError("no thread")
                    self.threads.append(t)
            elif not b and self.threads:
                self.ev.set()
                for t in self.threads:
                    t.join()
                self.threads = []
        elif ch == "filenr":
            if b and not self.fds:
                self.fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(240)]
            elif not b:
                for f in self.fds:
                    os.close(f)
                self.fds = []
        elif ch == "pipes":
            if b:
                for _ in range(3000):
                    r, w = os.pipe()
                    os.close(r)
                    os.close(w)
        elif ch == "inodes":
            d = os.path.join(os.environ["HOME"], "inodes")
            os.makedirs(d, exist_ok=True)
            for i in range(2000):
                p = os.path.join(d, str(i))
                if b:
                    open(p, "w").close()
                elif os.path.exists(p):
                    os.unlink(p)
        elif ch == "mem":
            if b and self.mem is None:
                n = 256 << 20
                m = bytearray(n)
                m[::4096] = b"\x01" * len(range(0, n, 4096))
                self.mem = m
            elif not b:
                self.mem = None
        elif ch == "lock":
            if self.lockfd is None:
                self.lockfd = os.open("/etc/passwd", os.O_RDONLY)
            fcntl.flock(self.lockfd, fcntl.LOCK_EX if b else fcntl.LOCK_UN)
        elif ch == "shm":
            p = "/dev/shm/whistle-red-team"
            try:
                if b:
                    open(p, "w").close()
                elif os.path.exists(p):
                    os.unlink(p)
            except OSError as e:
                log("tx shm", e)
        elif ch == "abstract":
            if b and self.sock is None:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind("\0whistle-red-team")
                self.sock = s
            elif not b and self.sock is not None:
                self.sock.close()
                self.sock = None
        elif ch == "pidns":
            if b:
                for _ in range(30):
                    pid = os.fork()
                    if pid == 0:
                        os._exit(0)
                    os.waitpid(pid, 0)
        elif ch == "disk":
            if b:
                sys.stderr.write(("x" * 1023 + "\n") * 40)
                sys.stderr.flush()


def measure(ch, st, k, start):
    """rx: a number for slot k, larger when tx sent 1."""
    if ch == "loadavg":
        return int(open("/proc/loadavg").read().split()[3].split("/")[1])
    if ch == "sysinfo":
        # sysinfo(2)'s process count (a u16 after 10 longs), no file at all.
        import ctypes
        buf = ctypes.create_string_buffer(128)
        ctypes.CDLL(None).sysinfo(buf)
        return int.from_bytes(buf.raw[80:82], "little")
    if ch == "filenr":
        return int(open("/proc/sys/fs/file-nr").read().split()[0])
    if ch == "inodes":
        return int(open("/proc/sys/fs/inode-nr").read().split()[0])
    if ch == "pipes":
        r, w = os.pipe()
        ino = os.fstat(r).st_ino
        os.close(r)
        os.close(w)
        prev, st["pipes"] = st.get("pipes"), ino
        return None if prev is None else ino - prev
    if ch == "pidns":
        last = int(open("/proc/loadavg").read().split()[4])
        prev, st["pidns"] = st.get("pidns"), last
        return None if prev is None else last - prev
    if ch == "mem":
        for line in open("/proc/meminfo"):
            if line.startswith("MemAvailable:"):
                return -int(line.split()[1])
    if ch == "lock":
        fd = st.setdefault("lockfd", os.open("/etc/passwd", os.O_RDONLY))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(fd, fcntl.LOCK_UN)
            return 0
        except OSError:
            return 1
    if ch == "shm":
        return int(os.path.exists("/dev/shm/whistle-red-team"))
    if ch == "abstract":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.bind("\0whistle-red-team")
            return 0
        except OSError as e:
            return int(e.errno == errno.EADDRINUSE)
        finally:
            s.close()
    if ch == "disk":
        v = os.statvfs("/usr")
        prev, st["disk"] = st.get("disk"), v.f_bfree
        return None if prev is None else prev - v.f_bfree
    if ch == "cpu":
        # Own progress in the middle of the slot: less while tx spins.
        n, end = 0, start + SLOT * 0.8
        while time.time() < end:
            n += 1
        return -n
    if ch == "procstat":
        f = open("/proc/stat").readline().split()[1:]
        busy = sum(int(x) for x in f) - int(f[3]) - int(f[4])
        prev, st["procstat"] = st.get("procstat"), busy
        return None if prev is None else busy - prev
    raise SystemExit(f"unknown channel {ch}")


def run():
    k0 = int(time.time() / SLOT) + 1
    if ROLE == "tx":
        helpers = 8 if "filenr" in CHANNELS else 0
        for _ in range(helpers):
            # Helpers that open files of their own on the same slots.
            if os.fork() == 0:
                tx = Tx()
                for k in range(k0, k0 + BITS + 2 * WAIT + 4):
                    sleep_until(k * SLOT)
                    tx.set("filenr", bit("filenr", k), k)
                os._exit(0)
        tx = Tx()
        for k in range(k0, k0 + BITS + 2 * WAIT + 4):
            sleep_until(k * SLOT)
            for ch in CHANNELS:
                try:
                    tx.set(ch, bit(ch, k), k)
                except OSError as e:
                    log(f"tx {ch}: {e}")
            if "cpu" in CHANNELS and bit("cpu", k):
                while time.time() < (k + 1) * SLOT:
                    pass
        for ch in CHANNELS:
            try:
                tx.set(ch, 0, 0)
            except OSError:
                pass
        for _ in range(helpers):
            os.wait()
        log("tx done")
    elif ROLE == "rx":
        st, got = {}, {ch: [] for ch in CHANNELS}
        for k in range(k0 + WAIT, k0 + WAIT + BITS + 1):
            start = k * SLOT + SLOT * 0.5
            sleep_until(start)
            for ch in CHANNELS:
                try:
                    v = measure(ch, st, k, k * SLOT + SLOT * 0.1)
                except OSError as e:
                    log(f"rx {ch}: {e}")
                    v = None
                if v is not None:
                    got[ch].append((k, v))
        for ch, vals in got.items():
            if not vals:
                log(f"CHANNEL {ch} 0 0")
                continue
            xs = sorted(v for _, v in vals)
            med = xs[len(xs) // 2]
            lo, hi = xs[0], xs[-1]
            # 1 above the middle of the two levels; a constant reads as 0.
            # A constant carries nothing: no bit counts as read.
            thr = (lo + hi) / 2
            ok = 0 if lo == hi else sum(int(v > thr) == bit(ch, k) for k, v in vals)
            log(f"CHANNEL {ch} {ok} {len(vals)} median={med} min={lo} max={hi}")
            log(f"RAW {ch} " + " ".join(f"{bit(ch, k)}:{v}" for k, v in vals))


run()
if MODE == "grpc":
    os.execv(WHISTLE, [WHISTLE, "bot", "--bot", "random"])
else:
    import json
    for line in sys.stdin:
        if json.loads(line).get("type") == "request":
            print(0, flush=True)
