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


def expect_refused(what, f, refusals=None):
    """`HELD` if `f` fails (with one of `refusals`, the filter's answers,
    when given: another error means the call reached the kernel)."""
    try:
        r = f()
    except OSError as e:
        name = errno.errorcode.get(e.errno, e.errno)
        if refusals is None or e.errno in refusals:
            log(f"HELD {what} ({name})")
        else:
            log(f"HOLE {what}: reached the kernel ({name})")
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
# Kernel objects another sandbox could find, and memory no limit counts.
expect_refused("memfd", lambda: os.memfd_create("x"))
expect_refused("sysv-shm", c_call("shmget", 0x5EED, 4096, 0o1666))
expect_refused("sysv-sem", c_call("semget", 0x5EED, 1, 0o1666))
expect_refused("sysv-msg", c_call("msgget", 0x5EED, 0o1666))
expect_refused("posix-mq", c_call("mq_open", b"/whistle-red", os.O_CREAT | os.O_RDWR, 0o666, None))
expect_refused("unshare-user", c_call("unshare", 0x10000000))
expect_refused("ptrace-init", c_call("ptrace", 16, 1, None, None))
if os.uname().machine == "x86_64":
    # Raw calls with null arguments: the kernel would say EFAULT or EINVAL.
    for nr, name in [(248, "add-key"), (250, "keyctl"), (425, "io_uring"),
                     (323, "userfaultfd"), (321, "bpf"), (298, "perf")]:
        expect_refused(name, c_call("syscall", nr, 0, 0, 0, 0, 0),
                       (errno.EPERM, errno.ENOSYS))
# Its own /dev/shm holds no more than the scratch cap (64 MiB), in files
# each below the file size limit.
try:
    for name in ("fill1", "fill2"):
        with open(f"/dev/shm/{name}", "wb") as f:
            for _ in range(40):
                f.write(bytes(1 << 20))
                f.flush()
    log("HOLE shm-fill: 80 MiB written")
except OSError as e:
    log(f"HELD shm-fill ({errno.errorcode.get(e.errno, e.errno)})")
for name in ("fill1", "fill2"):
    if os.path.exists(f"/dev/shm/{name}"):
        os.unlink(f"/dev/shm/{name}")
# Global counters it can read (each a channel if another bot can move it).
for path in ["/proc/loadavg", "/proc/sys/fs/file-nr", "/proc/sys/fs/inode-nr",
             "/proc/stat", "/proc/meminfo", "/proc/pressure/cpu", "/proc/diskstats",
             "/proc/interrupts", "/proc/vmstat", "/proc/locks",
             "/sys/devices/system/cpu/cpu0/cpuidle/state1/usage"]:
    try:
        open(path).read(1)
        log(f"READABLE {path}")
    except OSError as e:
        log(f"UNREADABLE {path} ({e.strerror})")
# Leaving its cgroup: no cgroup file system is there to write.
def leave_cgroup():
    for path in ["/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/pids/cgroup.procs",
                 "/sys/fs/cgroup/memory/cgroup.procs", "/sys/fs/cgroup/unified/cgroup.procs"]:
        try:
            with open(path, "w") as f:
                f.write(str(os.getpid()))
            return path
        except OSError:
            pass
    raise OSError(errno.ENOENT, "no cgroup file to write")
expect_refused("cgroup-escape", leave_cgroup)
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
