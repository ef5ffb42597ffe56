#!/usr/bin/env python3
"""A cheating stdio bot (crates/cli/tests/red_team.rs): one instance of it
in each of several seats of one table. Before it plays it tries, once each,
what would reach outside its sandbox or another instance, and says on stderr
`HOLE what: detail` for what worked and `HELD what` for what did not; it
also leaves behind what it can (a setsid, double-forked sleeper named by
argv[1], files in its scratch folder and /dev/shm) and says where
(`SCRATCH path`, `FD2 inode`, `READ path`).

    snoop.py MARKER_SECONDS SHARED_FILE
"""
import ctypes, errno, fcntl, json, os, socket, sys, time

MARKER, SHARED = sys.argv[1], sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def expect_refused(what, f):
    try:
        r = f()
    except OSError as e:
        log(f"HELD {what} ({errno.errorcode.get(e.errno, e.errno)})")
        return
    log(f"HOLE {what}: {r!r}")


def c_call(name, *args):
    def f():
        r = getattr(libc, name)(*args)
        if r < 0:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))
        return r
    return f


# Sockets: a stdio bot needs none.
for fam, kind, label in [
    (socket.AF_UNIX, socket.SOCK_STREAM, "unix-stream"),
    (socket.AF_UNIX, socket.SOCK_DGRAM, "unix-dgram"),
    (socket.AF_INET, socket.SOCK_STREAM, "tcp"),
    (socket.AF_INET, socket.SOCK_DGRAM, "udp"),
    (socket.AF_INET6, socket.SOCK_DGRAM, "udp6"),
    (socket.AF_NETLINK, socket.SOCK_RAW, "netlink"),
]:
    expect_refused(f"socket-{label}", lambda: socket.socket(fam, kind))
# Folder notifications and leases on a file both instances can read.
shared = os.open(SHARED, os.O_RDONLY)
folder = os.open(os.path.dirname(SHARED), os.O_RDONLY)
F_NOTIFY, F_SETLEASE, F_GETLEASE, DN_ACCESS = 1026, 1024, 1025, 1
expect_refused("dnotify", lambda: fcntl.fcntl(folder, F_NOTIFY, DN_ACCESS))
expect_refused("lease", lambda: fcntl.fcntl(shared, F_SETLEASE, fcntl.F_RDLCK))
expect_refused("get-lease", lambda: fcntl.fcntl(shared, F_GETLEASE))
expect_refused("get-lock", lambda: fcntl.fcntl(shared, fcntl.F_GETLK, bytes(32)))
expect_refused("inotify", c_call("inotify_init1", 0))
expect_refused("sethostname", c_call("sethostname", b"cheat", 5))
# Reading the shared file: its access time would tell another bot it was read.
os.read(shared, 100)
log(f"READ {SHARED}")
# Every open file it was given, and its stderr's pipe.
for fd in sorted(int(f) for f in os.listdir("/proc/self/fd")):
    try:
        log(f"FD {fd} {os.readlink(f'/proc/self/fd/{fd}')}")
    except OSError:
        pass
log(f"FD2 {os.fstat(2).st_ino}")
# The sandbox's init and the other processes it can see: any token there?
seen = []
for p in os.listdir("/proc"):
    if p.isdigit():
        for part in ("cmdline", "environ"):
            try:
                text = open(f"/proc/{p}/{part}", "rb").read().decode(errors="replace")
            except OSError:
                continue
            if ("seat-" in text or "bot-" in text) and p != str(os.getpid()):
                seen.append(f"{p}/{part}")
log(f"HOLE token-in-proc: {seen}" if seen else "HELD token-in-proc")
# Other instances' scratch folders beside its own.
home = os.environ["HOME"]
try:
    others = [n for n in os.listdir(os.path.dirname(home)) if n != os.path.basename(home)]
    log(f"HOLE other-scratch: {others}" if others else "HELD other-scratch")
except OSError as e:
    log(f"HELD other-scratch ({e.strerror})")
log(f"SCRATCH {home}")
# Traces: files, and a sleeper that leaves its session and its parent.
open(os.path.join(home, "trace"), "w").write("left behind")
open("/dev/shm/trace", "w").write("left behind")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", MARKER])
    os._exit(0)
os.wait()

for line in sys.stdin:
    if json.loads(line).get("type") == "request":
        print(0, flush=True)
