//! The sandbox's system-call filter (src/filter.rs) against real hostile
//! programs: `tests/hostile/probe.c`, compiled here with gcc, tries what a
//! cheating bot would (pass its cards to another bot through file locks,
//! hold memory in a memfd, read the organiser's keyring, freeze the
//! sandbox's init, watch other folders, open sockets it does not need) and
//! prints what happened. Each attack runs sandboxed in every mode this
//! machine offers, and, where it is harmless, unsandboxed too: there it must
//! work, so the test shows that the sandbox is what stops it. Real runtimes
//! (CPython, Node, Java, a C program and gcc itself) must still run.

use std::{
    collections::BTreeMap,
    io::Read,
    net::{TcpListener, UdpSocket},
    os::unix::net::UnixListener,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    sync::OnceLock,
    time::Duration,
};

use whistle_sandbox::{Limits, Mode, Spec};

mod common;
use common::{LAUNCHER, modes};

/// The errors the filter answers with.
const EPERM: &str = "E1";
const ENOSYS: &str = "E38";

/// The hostile program, compiled once for the whole test binary, in a
/// folder every sandbox here may read.
fn tools() -> &'static Path {
    static TOOLS: OnceLock<tempfile::TempDir> = OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            common::compile("probe", &["-pthread"], &dir.path().join("probe"));
            dir
        })
        .path()
}

fn probe_bin() -> PathBuf {
    tools().join("probe")
}

/// A bot's folders: its own (readable), its scratch, and a folder outside.
struct Bot {
    _root: tempfile::TempDir,
    dir: PathBuf,
    scratch: PathBuf,
    outside: PathBuf,
}

fn bot() -> Bot {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("bot");
    let scratch = root.path().join("scratch");
    let outside = root.path().join("other-table");
    for d in [&dir, &scratch, &outside] {
        std::fs::create_dir_all(d).unwrap();
    }
    Bot {
        _root: root,
        dir,
        scratch,
        outside,
    }
}

fn spec(mode: Mode, b: &Bot, program: &Path, args: &[&str], stdio: bool) -> Spec {
    let home = b.scratch.display().to_string();
    Spec {
        mode,
        program: program.to_path_buf(),
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: b.dir.clone(),
        env: vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("HOME".into(), home.clone()),
            ("TMPDIR".into(), home),
            ("LANG".into(), "C.UTF-8".into()),
        ],
        read: vec![tools().to_path_buf()],
        scratch: b.scratch.clone(),
        limits: Limits {
            scratch_mib: 64,
            memory_mib: 1024,
            processes: 64,
            ..Limits::default()
        },
        referee_port: None,
        stdio,
    }
}

fn run(s: &Spec) -> Output {
    s.command(Path::new(LAUNCHER))
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The probe's `name=answer` lines.
fn answers(o: &Output) -> BTreeMap<String, String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn kind(stdio: bool) -> &'static str {
    if stdio { "stdio" } else { "gRPC" }
}

#[test]
fn each_refused_call_gets_its_errno_and_what_a_bot_needs_still_works() {
    // Unsandboxed, the same program does all of it (the test is real).
    let bare = Command::new(probe_bin()).arg("calls").output().unwrap();
    let free = answers(&bare);
    assert_eq!(
        free.get("ioctl_tiocsti").map(String::as_str),
        Some("E25"),
        "unsandboxed TIOCSTI reaches the kernel (not a terminal): {}",
        text(&bare)
    );
    for call in [
        "memfd_create",
        "shmget",
        "semget",
        "msgget",
        "mq_open",
        "inotify_init1",
        "socket_udp",
        "socket_tcp",
        "listen",
        "ptrace_child",
        "process_vm_readv",
        "fcntl_getlk",
        "io_uring_setup",
        "keyctl",
        "prlimit_other",
        "setpriority_other",
        "sched_setscheduler_other",
        "sched_setaffinity_other",
    ] {
        assert_eq!(
            free.get(call).map(String::as_str),
            Some("ok"),
            "unsandboxed {call}: {}",
            text(&bare)
        );
    }
    for mode in modes() {
        for stdio in [false, true] {
            let b = bot();
            let o = run(&spec(mode, &b, &probe_bin(), &["calls"], stdio));
            let got = answers(&o);
            let grpc_unix = mode == Mode::Namespaces && !stdio;
            let grpc_tcp = mode == Mode::Landlock && !stdio;
            let yes_if = |c: bool| if c { "ok" } else { EPERM };
            let mut want: Vec<(&str, &str)> = vec![
                ("memfd_create", ENOSYS),
                ("memfd_secret", ENOSYS),
                ("shmget", EPERM),
                ("semget", EPERM),
                ("msgget", EPERM),
                ("mq_open", EPERM),
                ("inotify_init1", EPERM),
                ("keyctl", EPERM),
                ("add_key", EPERM),
                ("perf_event_open", EPERM),
                ("userfaultfd", EPERM),
                ("clone3", ENOSYS),
                ("io_uring_setup", ENOSYS),
                ("syslog", EPERM),
                ("mount", EPERM),
                ("unshare_user", EPERM),
                ("clone_newuser", EPERM),
                ("fork", "ok"),
                ("thread", "ok"),
                ("socketpair", "ok"),
                ("socket_unix_stream", yes_if(grpc_unix)),
                ("socket_unix_dgram", EPERM),
                ("socket_tcp", yes_if(grpc_tcp)),
                ("socket_tcp6", yes_if(grpc_tcp)),
                ("socket_udp", EPERM),
                ("socket_udp6", EPERM),
                ("socket_sctp", EPERM),
                ("socket_raw", EPERM),
                ("socket_packet", EPERM),
                ("socket_netlink", EPERM),
                ("ptrace_child", EPERM),
                ("process_vm_readv", EPERM),
                ("fcntl_getlk", EPERM),
                ("fcntl_ofd_getlk", EPERM),
                ("fcntl_setlease", EPERM),
                ("fcntl_getfd", "ok"),
                ("ioctl_tiocsti", EPERM),
                ("prlimit_other", EPERM),
                ("prlimit_self", "ok"),
                ("setpriority_other", EPERM),
                ("setpriority_self", "ok"),
                ("sched_setscheduler_other", EPERM),
                ("sched_setaffinity_other", EPERM),
                ("sched_setaffinity_self", "ok"),
                ("ioctl_fionread", "ok"),
            ];
            if grpc_tcp {
                // Listening on an unbound TCP socket would bind a port.
                want.push(("listen", EPERM));
            }
            for (call, answer) in want {
                assert_eq!(
                    got.get(call).map(String::as_str),
                    Some(answer),
                    "{mode:?} {} bot, {call}: {}",
                    kind(stdio),
                    text(&o)
                );
            }
            assert!(o.status.success(), "{mode:?}: {}", text(&o));
        }
    }
}

/// 13 cards (0..51), as the probe takes and prints them.
const CARDS: &str = "51,0,13,26,39,7,8,9,10,11,12,44,3";

/// Starts a sender (it signals [`CARDS`]) and a receiver with the lock
/// `kind` on `where_`; returns what the receiver printed. `sandbox` makes
/// each of them a bot of its own.
fn lock_channel(kind: &str, where_: &Path, base: u32, sandbox: Option<Mode>) -> String {
    let where_s = where_.display().to_string();
    let base_s = base.to_string();
    let send_args = ["send", kind, &where_s, &base_s, "8", CARDS];
    let recv_args = ["recv", kind, &where_s, &base_s, "4"];
    let (sender_bot, receiver_bot) = (bot(), bot());
    let command = |b: &Bot, args: &[&str]| match sandbox {
        Some(mode) => {
            let mut s = spec(mode, b, &probe_bin(), args, true);
            s.read.push(where_.to_path_buf());
            s.command(Path::new(LAUNCHER))
        }
        None => {
            let mut c = Command::new(probe_bin());
            c.args(args);
            c
        }
    };
    let mut sender = command(&sender_bot, &send_args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // The sender has placed its locks once it says so.
    let mut said = [0u8; 5];
    sender
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut said)
        .unwrap();
    let received = command(&receiver_bot, &recv_args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = sender.kill();
    let _ = sender.wait();
    format!(
        "sender: {}; receiver: {}",
        String::from_utf8_lossy(&said),
        String::from_utf8_lossy(&received.stdout).trim()
    )
}

#[test]
fn cards_do_not_pass_between_bots_through_file_locks() {
    // A shared folder both bots may read (as the system's files are), with
    // one file per bit for flock, and /etc/passwd for byte-range locks.
    let shared = tempfile::tempdir().unwrap();
    for i in 0..78 {
        std::fs::write(shared.path().join(format!("b{i}")), "").unwrap();
    }
    std::fs::write(shared.path().join("marker"), "").unwrap();
    let passwd = Path::new("/etc/passwd");
    // Byte ranges apart from any other run of this test.
    let base = 10_000 + (std::process::id() % 1000) * 4000;
    let kinds: [(&str, &Path); 3] = [("posix", passwd), ("ofd", passwd), ("flock", shared.path())];
    for (i, (kind, where_)) in kinds.iter().enumerate() {
        let bare = lock_channel(kind, where_, base + i as u32 * 1200, None);
        assert!(
            bare.ends_with(&format!("cards {CARDS}")),
            "unsandboxed, the cards pass through {kind} locks: {bare}"
        );
    }
    for mode in modes() {
        for (i, (kind, where_)) in kinds.iter().enumerate() {
            let got = lock_channel(kind, where_, base + i as u32 * 1200, Some(mode));
            assert!(!got.contains(CARDS), "{mode:?} {kind}: {got}");
            // Taking a lock seems to work and places nothing; asking for
            // one is refused; flock's probe sees nothing locked.
            let want = if *kind == "flock" {
                "recv=no-signal"
            } else {
                "recv=E1"
            };
            assert!(
                got.starts_with("sender: send=") && got.ends_with(want),
                "{mode:?} {kind}: {got}"
            );
        }
    }
}

#[test]
fn memory_in_a_memfd_is_refused() {
    // 512 MiB in memfds (eight of 63 MiB, each under the file-size limit)
    // would be counted by no limit (neither the data segment nor resident
    // memory, nor the scratch folder): creating one fails as on a kernel
    // without memfd_create.
    let script = "import os\n\
        fds = []\n\
        try:\n\
        \x20   for i in range(8):\n\
        \x20       fds.append(os.memfd_create('cards'))\n\
        \x20       for _ in range(63): os.write(fds[-1], b'x' * (1 << 20))\n\
        except OSError as e:\n\
        \x20   print('refused', e.errno); raise SystemExit(0)\n\
        print('WROTE', sum(os.fstat(fd).st_size for fd in fds) >> 20)\n";
    for mode in modes() {
        let b = bot();
        let mut s = spec(
            mode,
            &b,
            Path::new("/usr/bin/python3"),
            &["-c", script],
            false,
        );
        s.limits.memory_mib = 128;
        let o = run(&s);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("refused 38"), "{mode:?}: {}", text(&o));
        assert!(!out.contains("WROTE"), "{mode:?}: {}", text(&o));
    }
}

#[test]
fn the_organisers_session_keyring_is_out_of_reach() {
    // The test puts a secret in a new session keyring of its own and starts
    // the probe from there: unsandboxed it reads the secret back, sandboxed
    // the key calls are refused.
    let probe = probe_bin();
    let secret = "SEED-OF-THE-EVENT-4242";
    let bare = Command::new(&probe)
        .args(["session-exec", "whistle-test", secret])
        .arg(&probe)
        .args(["keyread", "whistle-test"])
        .output()
        .unwrap();
    if !bare.status.success() {
        eprintln!("no keyrings here, nothing to test: {}", text(&bare));
        return;
    }
    assert!(
        String::from_utf8_lossy(&bare.stdout).contains(&format!("key={secret}")),
        "{}",
        text(&bare)
    );
    for mode in modes() {
        let b = bot();
        let s = spec(mode, &b, &probe, &["keyread", "whistle-test"], false);
        let launch = s.command(Path::new(LAUNCHER));
        let mut c = Command::new(&probe);
        c.args(["session-exec", "whistle-test", secret])
            .arg(launch.get_program())
            .args(launch.get_args())
            .env_clear();
        for (k, v) in launch.get_envs() {
            if let Some(v) = v {
                c.env(k, v);
            }
        }
        let o = c.stdin(Stdio::null()).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(!out.contains(secret), "{mode:?}: {}", text(&o));
        assert!(
            out.contains(&format!("keyctl_search={EPERM}")),
            "{mode:?}: {}",
            text(&o)
        );
    }
}

#[test]
fn a_bot_cannot_trace_the_sandbox_init_and_the_sandbox_ends_normally() {
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        let b = bot();
        let o = run(&spec(mode, &b, &probe_bin(), &["ptrace", "1"], false));
        let got = answers(&o);
        assert_eq!(
            got.get("ptrace").map(String::as_str),
            Some(EPERM),
            "{}",
            text(&o)
        );
        assert!(o.status.success(), "init went on: {}", text(&o));
    }
}

#[test]
fn udp_is_refused_under_landlock_alone_and_nothing_arrives() {
    let listener = UdpSocket::bind("127.0.0.1:0").unwrap();
    listener
        .set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = format!(
        "import socket\n\
         try:\n\
         \x20   s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n\
         \x20   s.sendto(b'51,0,13', ('127.0.0.1', {port})); print('SENT')\n\
         except OSError as e: print('refused', e.errno)\n"
    );
    let mut buf = [0u8; 64];
    // Unsandboxed the datagram arrives.
    let bare = Command::new("/usr/bin/python3")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&bare.stdout).contains("SENT"));
    let n = listener.recv(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"51,0,13");
    for mode in modes() {
        let b = bot();
        let mut s = spec(
            mode,
            &b,
            Path::new("/usr/bin/python3"),
            &["-c", &script],
            false,
        );
        s.referee_port = (mode == Mode::Landlock).then_some(port);
        let o = run(&s);
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("refused 1"),
            "{mode:?}: {}",
            text(&o)
        );
        assert!(listener.recv(&mut buf).is_err(), "{mode:?}: a datagram");
    }
}

#[test]
fn tcp_fast_open_reaches_no_other_port_under_landlock_alone() {
    // Sending with MSG_FASTOPEN connects without connect(2), which is where
    // Landlock checks the port: unsandboxed and under Landlock without the
    // filter the data reached any port.
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    other.set_nonblocking(true).unwrap();
    let referee = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = other.local_addr().unwrap().port().to_string();
    let client = std::fs::read_to_string("/proc/sys/net/ipv4/tcp_fastopen")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .is_some_and(|v| v & 1 == 1);
    if client {
        let bare = Command::new(probe_bin())
            .args(["fastopen", &port])
            .output()
            .unwrap();
        assert_eq!(
            answers(&bare).get("fastopen").map(String::as_str),
            Some("ok"),
            "{}",
            text(&bare)
        );
        assert!(other.accept().is_ok(), "unsandboxed, Fast Open connects");
    } else {
        eprintln!("TCP Fast Open is off for clients here: only the refusal is checked");
    }
    for mode in modes().into_iter().filter(|m| *m == Mode::Landlock) {
        let b = bot();
        let mut s = spec(mode, &b, &probe_bin(), &["fastopen", &port], false);
        s.referee_port = Some(referee.local_addr().unwrap().port());
        let o = run(&s);
        assert_eq!(
            answers(&o).get("fastopen").map(String::as_str),
            Some(EPERM),
            "{}",
            text(&o)
        );
        assert!(other.accept().is_err(), "a connection arrived");
    }
}

#[test]
fn a_stdio_bot_opens_no_socket_and_reaches_no_unix_socket_it_is_shown() {
    for mode in modes() {
        let b = bot();
        // A socket in the bot's own folder, where it can see it (as a gRPC
        // bot sees the referee's).
        let path = b.dir.join("referee.sock");
        let listener = UnixListener::bind(&path).unwrap();
        listener.set_nonblocking(true).unwrap();
        // Open to the bot's uid, as the runner opens the referee's socket
        // (run by root, the bot is an unprivileged uid of its own).
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .unwrap();
        let path_s = path.display().to_string();
        let stdio = run(&spec(mode, &b, &probe_bin(), &["unix", &path_s], true));
        assert_eq!(
            answers(&stdio).get("socket").map(String::as_str),
            Some(EPERM),
            "{mode:?} stdio: {}",
            text(&stdio)
        );
        let stdio_calls = run(&spec(mode, &b, &probe_bin(), &["calls"], true));
        let got = answers(&stdio_calls);
        for call in [
            "socket_tcp",
            "socket_tcp6",
            "socket_udp",
            "socket_unix_stream",
        ] {
            assert_eq!(
                got.get(call).map(String::as_str),
                Some(EPERM),
                "{mode:?} stdio {call}: {}",
                text(&stdio_calls)
            );
        }
        assert!(
            listener.accept().is_err(),
            "{mode:?}: a stdio bot connected"
        );
        // A gRPC bot in namespaces reaches the referee's socket this way.
        let grpc = run(&spec(mode, &b, &probe_bin(), &["unix", &path_s], false));
        let want = if mode == Mode::Namespaces {
            ("connect", "ok")
        } else {
            ("socket", EPERM)
        };
        assert_eq!(
            answers(&grpc).get(want.0).map(String::as_str),
            Some(want.1),
            "{mode:?} gRPC: {}",
            text(&grpc)
        );
        if mode == Mode::Namespaces {
            assert!(listener.accept().is_ok());
        }
    }
}

#[test]
fn watching_a_folder_it_cannot_read_is_refused() {
    for mode in modes() {
        let b = bot();
        let outside = b.outside.display().to_string();
        let bare = Command::new(probe_bin())
            .args(["inotify", &outside])
            .output()
            .unwrap();
        assert_eq!(
            answers(&bare).get("inotify_add_watch").map(String::as_str),
            Some("ok"),
            "{}",
            text(&bare)
        );
        let o = run(&spec(mode, &b, &probe_bin(), &["inotify", &outside], false));
        assert_eq!(
            answers(&o).get("inotify").map(String::as_str),
            Some(EPERM),
            "{mode:?}: {}",
            text(&o)
        );
    }
}

/// Where `program` is on the bots' `PATH`, if it is there.
fn installed(program: &str) -> Option<PathBuf> {
    let found = whistle_sandbox::which(program, "/usr/local/bin:/usr/bin:/bin");
    if found.is_none() {
        eprintln!("SKIPPED: no {program} here");
    }
    found
}

/// Runs `program args` in every mode, as a gRPC and as a stdio bot, and
/// checks that it exits cleanly and prints every line of `want`.
fn runs_everywhere(program: &Path, args: &[&str], setup: impl Fn(&Bot), want: &[&str]) {
    for mode in modes() {
        for stdio in [false, true] {
            let b = bot();
            setup(&b);
            let o = run(&spec(mode, &b, program, args, stdio));
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(o.status.success(), "{mode:?} {}: {}", kind(stdio), text(&o));
            for w in want {
                assert!(
                    out.lines().any(|l| l == *w),
                    "{mode:?} {}: no line {w:?}: {}",
                    kind(stdio),
                    text(&o)
                );
            }
        }
    }
}

/// The sandbox's launcher blocks the signals that stop it; the bot must
/// not inherit that mask (a worker of Python's `Pool` that never sees its
/// SIGTERM hangs the bot's `Pool.terminate()` for ever).
#[test]
fn the_bot_starts_with_no_signal_blocked() {
    runs_everywhere(
        Path::new("/usr/bin/python3"),
        &[
            "-c",
            "import signal; print('blocked', sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])))",
        ],
        |_| {},
        &["blocked []"],
    );
}

#[test]
fn cpython_runs_threads_processes_subprocesses_and_sqlite() {
    let script = r#"
import multiprocessing as mp, os, sqlite3, subprocess, threading
got = []
t = threading.Thread(target=got.append, args=(42,)); t.start(); t.join()
print('thread', got[0])
ctx = mp.get_context('fork')
parent, child = ctx.Pipe()
p = ctx.Process(target=lambda c: c.send(6 * 7), args=(child,)); p.start()
print('process', parent.recv()); p.join(); print('exit', p.exitcode)
print('subprocess', subprocess.run(['/bin/echo', 'hi'], capture_output=True, text=True).stdout.strip())
try:
    with ctx.Pool(2) as pool: print('pool', sum(pool.map(abs, range(-9, 1))))
except OSError as e: print('pool refused', e.errno, e)
db = sqlite3.connect(os.path.join(os.environ['HOME'], 'book.db'))
db.execute('create table t (x)'); db.execute('insert into t values (7)'); db.commit()
print('sqlite', db.execute('select sum(x) from t').fetchone()[0])
"#;
    runs_everywhere(
        Path::new("/usr/bin/python3"),
        &["-c", script],
        |_| {},
        &[
            "thread 42",
            "process 42",
            "exit 0",
            "subprocess hi",
            "sqlite 7",
        ],
    );
    // A Pool's semaphores live in /dev/shm: where the sandbox gives no
    // writable /dev/shm, Landlock refuses it (EACCES, 13), not the filter.
    for mode in modes() {
        let b = bot();
        let o = run(&spec(
            mode,
            &b,
            Path::new("/usr/bin/python3"),
            &["-c", script],
            false,
        ));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains("pool 45") || out.contains("pool refused 13"),
            "{mode:?}: {}",
            text(&o)
        );
        if !out.contains("pool 45") {
            eprintln!("{mode:?}: multiprocessing.Pool needs a writable /dev/shm: {out}");
        }
    }
}

#[test]
fn node_runs_workers_children_files_and_timers() {
    let Some(node) = installed("node") else {
        return;
    };
    let script = r#"
const { Worker } = require('worker_threads');
const cp = require('child_process'), fs = require('fs'), crypto = require('crypto');
const w = new Worker("require('worker_threads').parentPort.postMessage(6 * 7)", { eval: true });
w.on('message', (m) => {
  console.log('worker', m);
  console.log('child', cp.execFileSync('/bin/echo', ['hi']).toString().trim());
  const f = process.env.HOME + '/n.txt';
  fs.writeFileSync(f, 'x');
  console.log('file', fs.readFileSync(f, 'utf8'));
  console.log('random', crypto.randomBytes(4).length);
  const c = cp.spawn('/bin/cat'); c.stdout.on('data', (d) => console.log('piped', d.toString().trim()));
  c.on('close', () => setTimeout(() => console.log('timer'), 5));
  c.stdin.end('through');
});
"#;
    runs_everywhere(
        &node,
        &["-e", script],
        |_| {},
        &[
            "worker 42",
            "child hi",
            "file x",
            "random 4",
            "piped through",
            "timer",
        ],
    );
}

const JAVA: &str = r#"
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.concurrent.*;

public class Main {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        System.out.println("pool " + pool.submit(() -> 6 * 7).get());
        pool.shutdown();
        Process p = new ProcessBuilder("/bin/echo", "hi").start();
        System.out.println("child " + new String(p.getInputStream().readAllBytes()).trim() + " " + p.waitFor());
        Path f = Paths.get(System.getenv("HOME"), "j.txt");
        Files.writeString(f, "x");
        System.out.println("file " + Files.readString(f));
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
            System.out.println("lock " + (ch.tryLock() != null));
        }
    }
}
"#;

#[test]
fn java_runs_a_compiled_class_and_a_source_file() {
    let (Some(java), Some(javac)) = (installed("java"), installed("javac")) else {
        return;
    };
    let want = ["pool 42", "child hi 0", "file x", "lock true"];
    let setup = |b: &Bot| {
        std::fs::write(b.dir.join("Main.java"), JAVA).unwrap();
        let o = Command::new(&javac)
            .arg("Main.java")
            .current_dir(&b.dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o));
    };
    runs_everywhere(&java, &["-Xmx64m", "-cp", ".", "Main"], setup, &want);
    // The source launcher compiles in the sandbox (as the stdio example
    // bot `java PassFirst.java` does).
    runs_everywhere(
        &java,
        &["-Xmx64m", "Main.java"],
        |b| std::fs::write(b.dir.join("Main.java"), JAVA).unwrap(),
        &want,
    );
}

const C: &str = r#"
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
static void *work(void *a) { *(int *)a = 42; return NULL; }
int main(void) {
    int v = 0; pthread_t t;
    pthread_create(&t, NULL, work, &v); pthread_join(t, NULL);
    printf("thread %d\n", v);
    int fds[2]; pipe(fds);
    pid_t c = fork();
    if (c == 0) { write(fds[1], "7", 1); _exit(0); }
    char b = 0; read(fds[0], &b, 1); waitpid(c, NULL, 0);
    printf("fork %c\n", b);
    char *argv[] = {"/bin/true", NULL}; int st = -1;
    if (posix_spawn(&c, "/bin/true", NULL, NULL, argv, environ) == 0) waitpid(c, &st, 0);
    printf("spawn %d\n", st);
    char *m = malloc(100 << 20); memset(m, 1, 100 << 20);
    printf("malloc %d\n", m[12345]);
    char path[4096]; snprintf(path, sizeof path, "%s/c.txt", getenv("HOME"));
    int f = open(path, O_CREAT | O_RDWR, 0600);
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    printf("lock %d\n", fcntl(f, F_SETLK, &l));
    fflush(stdout);
    return 0;
}
"#;

#[test]
fn a_c_program_runs_and_gcc_compiles_in_the_sandbox() {
    let want = ["thread 42", "fork 7", "spawn 0", "malloc 1", "lock 0"];
    // Compiled here, run there.
    let built = tempfile::tempdir().unwrap();
    std::fs::write(built.path().join("c.c"), C).unwrap();
    let o = Command::new("gcc")
        .args(["-O1", "-pthread", "-o", "c", "c.c"])
        .current_dir(built.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let program = built.path().join("c");
    runs_everywhere(
        &program,
        &[],
        |b| {
            std::fs::copy(&program, b.dir.join("c"))
                .map(|_| ())
                .unwrap()
        },
        &want,
    );
    // Compiled in the sandbox, into the scratch folder (as the stdio
    // example bot in C is), then run.
    runs_everywhere(
        Path::new("/bin/sh"),
        &[
            "-c",
            "cc -O1 -pthread -o \"$TMPDIR/c\" c.c && exec \"$TMPDIR/c\"",
        ],
        |b| std::fs::write(b.dir.join("c.c"), C).unwrap(),
        &want,
    );
}
