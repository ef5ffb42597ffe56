//! A network namespace handed from one sandbox to the next
//! (`whistle_sandbox::NETNS_VAR`, run as root) carries nothing between
//! them: a real hostile bot binds abstract Unix socket names, tries to bring
//! the loopback up, write the namespace's sysctls and open other sockets,
//! and leaves a bound socket in flight in a message the referee never read;
//! the next sandbox handed its namespace finds none of it, and a namespace
//! that still holds a socket is not entered at all.

use std::{
    io::{BufRead, BufReader, Read},
    os::unix::{
        fs::{MetadataExt, PermissionsExt},
        net::UnixListener,
        process::ExitStatusExt,
    },
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use whistle_sandbox::{Limits, Mode, NETNS_VAR, Spec, Verdict, held_network};

mod common;
use common::{LAUNCHER, launch, modes};

/// What the hostile bot leaves behind, and what it prints of its namespace
/// first (the loopback's flags, two sysctls, the namespace).
const LEAVE: &str = r#"
import fcntl, os, socket, struct, sys, time
def lo_flags():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    r = fcntl.ioctl(s.fileno(), 0x8913, struct.pack('16sH14x', b'lo', 0))
    s.close()
    return struct.unpack('16sH14x', r)[1]
def sysctls():
    out = []
    for f in ('core/somaxconn', 'unix/max_dgram_qlen'):
        try:
            out.append(open('/proc/sys/net/' + f).read().strip())
        except OSError as e:
            out.append('unreadable')
    return ' '.join(out)
print('NS', os.readlink('/proc/self/ns/net'))
print('LO', lo_flags())
print('SYSCTL', sysctls())
held = []
for i in range(8):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(b'\0whistle-left-%d' % i)
    held.append(s)
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
a.bind(b'\0whistle-left-pair')
held += [a, b]
try:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    fcntl.ioctl(s.fileno(), 0x8914, struct.pack('16sH14x', b'lo', 1))
    print('LOOPBACK-UP')
except OSError as e:
    print('loopback refused', e.errno)
for f, v in (('core/somaxconn', '7'), ('unix/max_dgram_qlen', '7')):
    try:
        with open('/proc/sys/net/' + f, 'w') as h:
            h.write(v)
        print('WROTE', f)
    except OSError as e:
        print('sysctl refused', f, e.errno)
for fam, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM),
                  (socket.AF_NETLINK, socket.SOCK_RAW), (socket.AF_UNIX, socket.SOCK_DGRAM)):
    try:
        socket.socket(fam, kind)
        print('OPENED', fam, kind)
    except OSError as e:
        print('socket refused', fam, kind, e.errno)
referee = os.environ.get('WHISTLE_ADDRESS', '')
if referee.startswith('unix:'):
    # A bound socket in flight to the referee, which never reads it.
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(referee[5:])
    socket.send_fds(c, [b'x'], [held[0].fileno()])
    held.append(c)
print('READY', flush=True)
time.sleep(60)
"#;

/// What the next bot looks for: every name the hostile one bound, any
/// socket of the namespace, the loopback's flags and the sysctls.
const LOOK: &str = r#"
import fcntl, os, socket, struct
print('NS', os.readlink('/proc/self/ns/net'))
print('UNIX-SOCKETS', len(open('/proc/net/unix').read().splitlines()) - 1)
print('SOCKSTAT', open('/proc/net/sockstat').read().splitlines()[0])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
r = fcntl.ioctl(s.fileno(), 0x8913, struct.pack('16sH14x', b'lo', 0))
print('LO', struct.unpack('16sH14x', r)[1])
out = []
for f in ('core/somaxconn', 'unix/max_dgram_qlen'):
    try:
        out.append(open('/proc/sys/net/' + f).read().strip())
    except OSError:
        out.append('unreadable')
print('SYSCTL', ' '.join(out))
names = [b'\0whistle-left-%d' % i for i in range(8)] + [b'\0whistle-left-pair']
for n in names:
    t = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        t.bind(n)
    except OSError as e:
        print('TAKEN', n[1:].decode(), e.errno)
    t.close()
print('DONE', flush=True)
"#;

fn root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<u32>().ok())
        == Some(0)
}

struct Folders {
    _root: tempfile::TempDir,
    dir: PathBuf,
    scratch: PathBuf,
}

fn folders() -> Folders {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("bot");
    let scratch = root.path().join("scratch");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&scratch).unwrap();
    Folders {
        _root: root,
        dir,
        scratch,
    }
}

fn python(f: &Folders, script: &str, referee: Option<&PathBuf>) -> Spec {
    let mut env = vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), f.scratch.display().to_string()),
    ];
    if let Some(r) = referee {
        env.push(("WHISTLE_ADDRESS".into(), format!("unix:{}", r.display())));
    }
    Spec {
        mode: Mode::Namespaces,
        program: PathBuf::from("/usr/bin/env"),
        args: vec!["python3".into(), "-c".into(), script.into()],
        dir: f.dir.clone(),
        env,
        read: Vec::new(),
        scratch: f.scratch.clone(),
        limits: Limits {
            scratch_mib: 8,
            memory_mib: 256,
            processes: 32,
            ..Limits::default()
        },
        referee_port: None,
        stdio: false,
    }
}

fn start(s: &Spec, handed: Option<&std::fs::File>) -> Child {
    let mut cmd = s.command(std::path::Path::new(LAUNCHER));
    if let Some(ns) = handed {
        cmd.env(NETNS_VAR, held_network(ns));
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    launch(s.mode, || cmd.spawn()).unwrap()
}

fn wait(child: &mut Child, limit: Duration) -> Verdict {
    let t = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return Verdict::of_exit(s.code(), s.signal(), &Limits::default());
        }
        assert!(t.elapsed() < limit, "the sandbox did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stderr_of(child: &mut Child) -> String {
    let mut e = String::new();
    if let Some(mut err) = child.stderr.take() {
        let _ = err.read_to_string(&mut e);
    }
    e
}

/// Runs the hostile bot until it is ready, holds its network namespace,
/// stops it: what it printed, and the namespace.
fn leave(f: &Folders, referee: Option<&PathBuf>) -> (String, std::fs::File) {
    let mut child = start(&python(f, LEAVE, referee), None);
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            panic!(
                "the hostile bot ended early: {text}\n{}",
                stderr_of(&mut child)
            );
        }
        text.push_str(&line);
        if line.starts_with("READY") {
            break;
        }
    }
    // The launcher is in the sandbox's network namespace.
    let ns = std::fs::File::open(format!("/proc/{}/ns/net", child.id())).unwrap();
    Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    wait(&mut child, Duration::from_secs(20));
    (text, ns)
}

/// Runs the looking bot handed `ns`: what it printed.
fn look(f: &Folders, ns: &std::fs::File) -> String {
    let mut child = start(&python(f, LOOK, None), Some(ns));
    let verdict = wait(&mut child, Duration::from_secs(30));
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(
        verdict,
        Verdict::Exited(0),
        "{text}\n{}",
        stderr_of(&mut child)
    );
    text
}

fn field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {key} in {text}"))
}

fn ns_name(ns: &std::fs::File) -> String {
    format!("net:[{}]", ns.metadata().unwrap().ino())
}

#[test]
fn a_network_namespace_handed_on_carries_nothing() {
    if !root() || !modes().contains(&Mode::Namespaces) {
        eprintln!("network namespaces are handed on only to a launcher run as root");
        return;
    }
    let f = folders();
    let (left, ns) = leave(&f, None);
    assert_eq!(field(&left, "NS"), ns_name(&ns), "{left}");
    // Everything it tried needs a capability it lacks, or a socket the
    // filter refuses.
    assert!(left.contains("loopback refused"), "{left}");
    assert!(!left.contains("LOOPBACK-UP"), "{left}");
    assert_eq!(left.matches("sysctl refused").count(), 2, "{left}");
    assert!(!left.contains("WROTE"), "{left}");
    assert_eq!(left.matches("socket refused").count(), 4, "{left}");
    assert!(!left.contains("OPENED"), "{left}");

    let g = folders();
    let seen = look(&g, &ns);
    // The same namespace, found as new.
    assert_eq!(field(&seen, "NS"), ns_name(&ns), "{seen}");
    assert_eq!(field(&seen, "UNIX-SOCKETS"), "0", "{seen}");
    assert_eq!(field(&seen, "SOCKSTAT"), "sockets: used 0", "{seen}");
    assert_eq!(field(&seen, "LO"), field(&left, "LO"), "{seen}\n{left}");
    assert_eq!(
        field(&seen, "SYSCTL"),
        field(&left, "SYSCTL"),
        "{seen}\n{left}"
    );
    assert!(!seen.contains("TAKEN"), "{seen}");
    assert!(seen.contains("DONE"), "{seen}");
}

#[test]
fn a_network_namespace_that_holds_a_socket_is_not_entered() {
    if !root() || !modes().contains(&Mode::Namespaces) {
        eprintln!("network namespaces are handed on only to a launcher run as root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let referee = dir.path().join("referee.sock");
    let listener = UnixListener::bind(&referee).unwrap();
    std::fs::set_permissions(&referee, std::fs::Permissions::from_mode(0o777)).unwrap();
    let f = folders();
    let (left, ns) = leave(&f, Some(&referee));
    // The bot's bound socket, in flight in a message the referee has not
    // read, outlived every process of its sandbox.
    let (mut conn, _) = listener.accept().unwrap();
    let g = folders();
    let seen = look(&g, &ns);
    assert_ne!(field(&seen, "NS"), ns_name(&ns), "{seen}\n{left}");
    assert!(!seen.contains("TAKEN"), "{seen}");
    assert_eq!(field(&seen, "UNIX-SOCKETS"), "0", "{seen}");

    // Read (the socket in flight is closed with the message), the same
    // namespace is entered, and found as new.
    let mut byte = [0u8; 1];
    conn.read_exact(&mut byte).unwrap();
    drop(conn);
    let h = folders();
    let seen = look(&h, &ns);
    assert_eq!(field(&seen, "NS"), ns_name(&ns), "{seen}");
    assert!(!seen.contains("TAKEN"), "{seen}");
    assert_eq!(field(&seen, "UNIX-SOCKETS"), "0", "{seen}");
}
