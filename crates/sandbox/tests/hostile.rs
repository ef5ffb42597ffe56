//! What a hostile tester did through the sandbox, each done again by a real
//! misbehaving program (shell, Python, C compiled here) in each mode this
//! machine offers, with and without a cgroup: trace and freeze the
//! sandbox's init, hide memory in `tmpfs`, fill Landlock's scratch folder,
//! spin on every processor, outlive the sandbox, reach a host socket, read
//! `/etc/shadow`.

use std::{
    io::Read,
    os::unix::{net::UnixListener, process::ExitStatusExt},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use whistle_sandbox::{CGROUP_VAR, Cpus, Limits, Mode, Spec, Verdict, probe};

mod common;
use common::{LAUNCHER, launch, modes};

/// Whether sandboxes get a cgroup here (else the watchdog keeps the limits).
fn cgroups() -> bool {
    probe(Path::new(LAUNCHER)).is_ok_and(|(_, s)| s.cgroup.is_some())
}

fn root() -> bool {
    nix_uid() == 0
}

fn nix_uid() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap()
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

fn spec(mode: Mode, f: &Folders, program: &str, args: &[&str]) -> Spec {
    Spec {
        mode,
        program: PathBuf::from(program),
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: f.dir.clone(),
        env: vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("HOME".into(), f.scratch.display().to_string()),
        ],
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

fn python(mode: Mode, f: &Folders, script: &str) -> Spec {
    spec(mode, f, "/usr/bin/env", &["python3", "-c", script])
}

struct Ran {
    verdict: Verdict,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn text(&self) -> String {
        format!(
            "verdict: {}\nstdout: {}\nstderr: {}",
            self.verdict, self.stdout, self.stderr
        )
    }
}

fn start(s: &Spec, cgroup: bool) -> Child {
    let mut cmd = s.command(Path::new(LAUNCHER));
    if !cgroup {
        cmd.env(CGROUP_VAR, "none");
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    launch(s.mode, || cmd.spawn()).unwrap()
}

/// Runs `s` through the launcher, for at most `limit` (then the launcher is
/// killed and the test fails: a sandbox that does not end is a defect).
fn run(s: &Spec, cgroup: bool, limit: Duration) -> Ran {
    let mut child = start(s, cgroup);
    let status = wait(&mut child, limit);
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let Some(status) = status else {
        panic!("the sandbox did not end within {limit:?}\nstdout: {stdout}\nstderr: {stderr}");
    };
    Ran {
        verdict: Verdict::of_exit(status.code(), status.signal(), &s.limits),
        stdout,
        stderr,
    }
}

fn wait(child: &mut Child, limit: Duration) -> Option<std::process::ExitStatus> {
    let t = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return Some(s);
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The processes of the machine whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(marker) {
                out.push(format!("{pid}: {cmd}"));
            }
        }
    }
    out
}

/// The processes of [`with_marker`], each killed so that the machine is
/// left clean even when the test fails.
fn left_over(marker: &str) -> Vec<String> {
    let left = with_marker(marker);
    for l in &left {
        if let Some(pid) = l.split(':').next() {
            let _ = Command::new("kill").args(["-KILL", pid]).status();
        }
    }
    left
}

/// Whether the launcher can be its sandbox's init here (run as root, in
/// namespaces); else it says the test is skipped.
fn init_is_the_launcher() -> bool {
    let yes = root() && modes().contains(&Mode::Namespaces);
    if !yes {
        eprintln!("needs root and namespaces: skipped");
    }
    yes
}

/// The cgroup folders named `name` (a sandbox's), in every hierarchy.
fn cgroups_named(name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![(PathBuf::from("/sys/fs/cgroup"), 0)];
    while let Some((d, depth)) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                if e.file_name().to_str() == Some(name) {
                    out.push(e.path());
                } else if depth < 4 {
                    todo.push((e.path(), depth + 1));
                }
            }
        }
    }
    out
}

fn marker(what: &str) -> String {
    format!(
        "whistle-hostile-{what}-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos() ^ rand_bits()
    )
}

fn rand_bits() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// The cgroup choices to test: with one where the machine gives it, and
/// always without (the watchdog).
fn cgroup_choices() -> Vec<bool> {
    if cgroups() {
        vec![true, false]
    } else {
        vec![false]
    }
}

/// The hostile tester's first move: trace the sandbox's init (which stops
/// it, and its watchdog with it), then hold 4 × 100 MiB under a 128 MiB
/// limit. The trace is refused and the memory limit holds.
#[test]
fn tracing_init_does_not_save_children_from_the_memory_limit() {
    let script = r#"
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(16, 1, 0, 0)  # PTRACE_ATTACH to the sandbox's init
print('ATTACHED' if r == 0 else 'ATTACH-REFUSED', ctypes.get_errno(), flush=True)
try:
    with open('/proc/1/mem', 'rb') as m:
        print('READ-INIT-MEM', flush=True)
except OSError as e:
    print('NO-INIT-MEM', e, flush=True)
kids = []
for i in range(4):
    pid = os.fork()
    if pid == 0:
        x = b'\x01' * (100 << 20)
        time.sleep(8)
        os._exit(0)
    kids.append(pid)
time.sleep(6)
alive = sum(1 for k in kids if os.waitpid(k, os.WNOHANG) == (0, 0))
print('KIDS-ALIVE', alive, flush=True)
"#;
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        for cgroup in cgroup_choices() {
            let f = folders();
            let mut s = python(mode, &f, script);
            s.limits.memory_mib = 128;
            let r = run(&s, cgroup, Duration::from_secs(30));
            assert!(
                !r.stdout.contains("ATTACHED") && !r.stdout.contains("READ-INIT-MEM"),
                "{mode:?} cgroup {cgroup}: {}",
                r.text()
            );
            assert_eq!(
                r.verdict,
                Verdict::Memory(128),
                "{mode:?} cgroup {cgroup}: {}",
                r.text()
            );
            assert!(!r.stdout.contains("SURVIVED"), "{}", r.text());
            assert!(
                r.stderr.contains("whistle sandbox: memory limit 128 MiB"),
                "{}",
                r.text()
            );
        }
    }
}

/// Memory written to a `tmpfs` (the scratch folder, `/dev/shm`) is the
/// sandbox's memory: 200 MiB there under a 64 MiB limit is stopped or
/// refused, never kept.
#[test]
fn memory_hidden_in_tmpfs_counts() {
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        for cgroup in cgroup_choices() {
            for place in ["$HOME", "/dev/shm"] {
                let f = folders();
                let script = format!(
                    "i=0; while [ $i -lt 50 ]; do dd if=/dev/zero of={place}/fill$i bs=1M count=4 \
                     2>/dev/null || echo REFUSED; i=$((i+1)); done; sleep 1; \
                     du -sm {place} 2>/dev/null; echo SURVIVED"
                );
                let mut s = spec(mode, &f, "/bin/sh", &["-c", &script]);
                s.limits.memory_mib = 64;
                s.limits.scratch_mib = 256;
                let r = run(&s, cgroup, Duration::from_secs(30));
                let stopped = r.verdict == Verdict::Memory(64);
                let refused = r.stdout.contains("REFUSED");
                assert!(
                    stopped || refused,
                    "{mode:?} cgroup {cgroup} {place}: {}",
                    r.text()
                );
                if !refused {
                    assert!(!r.stdout.contains("SURVIVED"), "{}", r.text());
                }
            }
        }
    }
}

/// Landlock alone: the scratch folder is a host folder, bounded per file by
/// the file-size limit only; the watchdog sums it and stops a bot that
/// writes more than `scratch_mib` in all.
#[test]
fn landlock_scratch_past_its_size_is_stopped() {
    for mode in modes().into_iter().filter(|m| *m == Mode::Landlock) {
        let f = folders();
        let script = "i=0; while [ $i -lt 20 ]; do dd if=/dev/zero of=$HOME/fill$i bs=1M count=4 \
                      2>/dev/null; i=$((i+1)); done; sleep 3; echo SURVIVED";
        let s = spec(mode, &f, "/bin/sh", &["-c", script]);
        let r = run(&s, true, Duration::from_secs(30));
        assert_eq!(r.verdict, Verdict::Scratch(8), "{}", r.text());
        assert!(!r.stdout.contains("SURVIVED"), "{}", r.text());
        assert!(
            r.stderr.contains("whistle sandbox: scratch limit 8 MiB"),
            "{}",
            r.text()
        );
    }
}

/// Eight spinning processes: a cgroup's quota holds the whole sandbox to its
/// CPU share (measured by the bot itself: its children's CPU time over 2 s
/// of wall time), so they slow only the bot.
#[test]
fn a_cpu_hog_gets_its_share_only() {
    if !cgroups() {
        eprintln!("no cgroup here: the watchdog's verdict is tested instead");
        return;
    }
    let script = r#"
import os, signal, time
kids = []
for i in range(8):
    pid = os.fork()
    if pid == 0:
        while True:
            pass
    kids.append(pid)
t0 = os.times(); w0 = time.monotonic()
time.sleep(2)
for k in kids:
    os.kill(k, signal.SIGKILL)
for k in kids:
    os.waitpid(k, 0)
t1 = os.times(); w1 = time.monotonic()
used = (t1.children_user + t1.children_system) - (t0.children_user + t0.children_system)
print('RATE %.3f' % (used / (w1 - w0)), flush=True)
"#;
    for mode in modes() {
        let f = folders();
        let s = python(mode, &f, script);
        let r = run(&s, true, Duration::from_secs(30));
        let rate: f64 = r
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("RATE "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{mode:?}: {}", r.text()));
        assert!(
            rate <= 1.2,
            "{mode:?}: the hog used {rate} processors (share 1.0): {}",
            r.text()
        );
    }
}

/// Where no cgroup can slow it, the watchdog stops a sandbox that uses more
/// than its CPU share, with its own verdict.
#[test]
fn a_cpu_hog_without_a_cgroup_is_stopped_for_its_share() {
    let script = "i=0; while [ $i -lt 8 ]; do sh -c 'while :; do :; done' & i=$((i+1)); done; \
                  sleep 20; echo SURVIVED";
    for mode in modes() {
        let f = folders();
        let mut s = spec(mode, &f, "/bin/sh", &["-c", script]);
        s.limits.cpus = Cpus::new(0.1);
        let t = Instant::now();
        let r = run(&s, false, Duration::from_secs(40));
        assert_eq!(
            r.verdict,
            Verdict::CpuShare(Cpus::new(0.1)),
            "{mode:?}: {}",
            r.text()
        );
        assert!(
            r.stderr
                .contains("whistle sandbox: CPU share limit 0.1 processors"),
            "{}",
            r.text()
        );
        assert!(t.elapsed() < Duration::from_secs(15), "{:?}", t.elapsed());
    }
}

/// `setsid`, a double fork and spinning: once the launcher has exited, no
/// process of the bot is left, whether the bot ended by itself or the
/// launcher was told to stop.
#[test]
fn nothing_outlives_the_launcher() {
    for mode in modes() {
        for cgroup in cgroup_choices() {
            for stop in [false, true] {
                let m = marker("outlive");
                let script = format!(
                    "setsid sh -c \"(sh -c 'while :; do :; done' {m} &); (sh -c 'sleep 300' {m} &)\" \
                     </dev/null >/dev/null 2>&1; (sh -c 'sleep 300' {m} &); sleep 0.3; echo STARTED; {}",
                    if stop { "sleep 300" } else { "exit 0" }
                );
                let f = folders();
                let mut s = spec(mode, &f, "/bin/sh", &["-c", &script]);
                // Eight spinning processes are not the point here.
                s.limits.cpus = Cpus::new(8.0);
                let mut child = start(&s, cgroup);
                if stop {
                    std::thread::sleep(Duration::from_millis(1500));
                    assert!(
                        !with_marker(&m).is_empty(),
                        "{mode:?}: the bot's processes run"
                    );
                    Command::new("kill")
                        .args(["-TERM", &child.id().to_string()])
                        .status()
                        .unwrap();
                }
                let launcher = child.id();
                let status = wait(&mut child, Duration::from_secs(20));
                assert!(
                    status.is_some(),
                    "{mode:?} cgroup {cgroup}: the launcher did not end"
                );
                let groups = cgroups_named(&format!("whistle-sandbox-{launcher}"));
                assert!(
                    groups.is_empty(),
                    "the sandbox's cgroup is left: {groups:?}"
                );
                let left = left_over(&m);
                assert!(
                    left.is_empty(),
                    "{mode:?} cgroup {cgroup} stop {stop}: left after the launcher: {left:?}"
                );
            }
        }
    }
}

/// A launcher started as PID 1 of its own PID namespace (whistle's runner,
/// run as root) cannot see its parent across the namespace's edge: when
/// the parent is killed outright (SIGKILL: whistle killed), the launcher
/// still ends its sandbox, nothing of the bot left and its cgroup removed.
/// The parent here is a Python process that makes the namespace and
/// starts the launcher as the runner does.
#[test]
fn a_launcher_that_is_init_ends_its_sandbox_once_its_parent_is_gone() {
    if !init_is_the_launcher() {
        return;
    }
    for cgroup in cgroup_choices() {
        let m = marker("orphaned");
        let f = folders();
        let script = format!("(sh -c 'sleep 300' {m} &); sh -c 'sleep 300' {m}");
        let s = spec(Mode::Namespaces, &f, "/bin/sh", &["-c", &script]);
        let mut cmd = s.command(Path::new(LAUNCHER));
        if !cgroup {
            cmd.env(CGROUP_VAR, "none");
        }
        let parent_script = format!(
            "import ctypes, subprocess, sys, time\n\
             if ctypes.CDLL(None, use_errno=True).unshare(0x20000000) != 0: sys.exit(3)\n\
             p = subprocess.Popen({launcher:?}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n\
             print(p.pid, flush=True)\n\
             time.sleep(300)\n",
            launcher = [LAUNCHER, "__sandbox", "run"],
        );
        // The launcher's environment (its spec) is the parent's, which
        // Python hands on.
        let mut parent = Command::new("python3");
        parent.args(["-c", &parent_script]).env_clear();
        for (k, v) in cmd.get_envs() {
            if let Some(v) = v {
                parent.env(k, v);
            }
        }
        let mut parent = parent
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        {
            use std::io::BufRead;
            std::io::BufReader::new(parent.stdout.take().unwrap())
                .read_line(&mut line)
                .unwrap();
        }
        let launcher: i32 = line.trim().parse().expect("the launcher's pid");
        let started = Instant::now();
        while with_marker(&m).len() < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "cgroup {cgroup}: the bot did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        parent.kill().unwrap();
        parent.wait().unwrap();
        let gone = |pid: i32| !Path::new(&format!("/proc/{pid}")).exists();
        while !gone(launcher) && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let left = left_over(&m);
        assert!(
            gone(launcher),
            "cgroup {cgroup}: the launcher outlived its parent"
        );
        assert!(left.is_empty(), "cgroup {cgroup}: left: {left:?}");
        let groups = cgroups_named(&format!("whistle-sandbox-{launcher}"));
        assert!(
            groups.is_empty(),
            "the sandbox's cgroup is left: {groups:?}"
        );
    }
}

/// A launcher that is its sandbox's init carries the bot's limits, its CPU
/// time among them, and a bot can make it spend that time: helpers
/// started as init's own children (`CLONE_PARENT`), each below its own
/// limit, start processes that end at once, for init to reap. The sandbox
/// ends with the CPU verdict before the kernel's SIGKILL at the hard
/// limit would end init itself (which would leave the cgroup behind and
/// no verdict), and nothing of the bot is left. (On a loaded machine the
/// bot's own process may reach the limit first: the same verdict.)
#[test]
fn a_bot_that_spends_inits_cpu_time_gets_the_cpu_verdict() {
    if !init_is_the_launcher() {
        return;
    }
    let f = folders();
    let bin = f.dir.join("orphans");
    common::compile("orphans", &[], &bin);
    let mut s = spec(Mode::Namespaces, &f, bin.to_str().unwrap(), &["0.5"]);
    s.limits.cpu_s = 1;
    s.limits.processes = 1024;
    s.limits.cpus = Cpus::new(2.0);
    let started = Instant::now();
    let mut child = start(&s, true);
    let launcher = child.id();
    let status = wait(&mut child, Duration::from_secs(240));
    let mut stderr = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut stderr);
    let Some(status) = status else {
        panic!("the sandbox did not end: {stderr}");
    };
    let verdict = Verdict::of_exit(status.code(), status.signal(), &s.limits);
    assert_eq!(
        verdict,
        Verdict::Cpu(1),
        "after {:?}: {stderr}",
        started.elapsed()
    );
    let groups = cgroups_named(&format!("whistle-sandbox-{launcher}"));
    assert!(
        groups.is_empty(),
        "the sandbox's cgroup is left: {groups:?}"
    );
    let left = left_over(bin.to_str().unwrap());
    assert!(left.is_empty(), "left: {left:?}");
}

/// A host Unix socket (a stand-in for Docker's or D-Bus's) cannot be
/// reached by its path, in a temporary folder or in /tmp (namespaces: the
/// private root has neither; Landlock alone cannot stop it, and says so).
#[test]
fn a_host_socket_is_out_of_reach() {
    let dir = tempfile::tempdir().unwrap();
    let in_dir = dir.path().join("host.sock");
    let in_tmp = PathBuf::from(format!("/tmp/whistle-hostile-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&in_tmp);
    let a = UnixListener::bind(&in_dir).unwrap();
    let b = UnixListener::bind(&in_tmp).unwrap();
    for p in [&in_dir, &in_tmp] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let script = format!(
        "import socket\n\
         for p in ({:?}, {:?}):\n\
         \x20   s = socket.socket(socket.AF_UNIX)\n\
         \x20   try:\n\
         \x20       s.connect(p); print('CONNECTED', p)\n\
         \x20   except OSError as e: print('refused', p, e)\n",
        in_dir.display().to_string(),
        in_tmp.display().to_string()
    );
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        let f = folders();
        let r = run(&python(mode, &f, &script), true, Duration::from_secs(30));
        assert!(!r.stdout.contains("CONNECTED"), "{mode:?}: {}", r.text());
        assert_eq!(r.stdout.matches("refused").count(), 2, "{}", r.text());
    }
    drop((a, b));
    let _ = std::fs::remove_file(&in_tmp);
}

/// The bot is never root: its uid inside is not 0, `/etc/shadow` is not
/// readable (run as root), and the host's /tmp, /home, /root and /run are
/// absent or empty.
#[test]
fn the_bot_is_not_root_and_sees_a_private_root() {
    let host_tmp = PathBuf::from(format!("/tmp/whistle-hostile-seen-{}", std::process::id()));
    std::fs::write(&host_tmp, "host").unwrap();
    let script = "id -u; cat /etc/shadow >/dev/null 2>&1 && echo READ-SHADOW; \
                  for d in /tmp /home /root /run /var/run; do \
                  [ -n \"$(ls -A $d 2>/dev/null)\" ] && echo SEES $d; done; \
                  ls /tmp; ls -R /tmp | grep -q whistle-hostile-seen && echo SEES-HOST-TMP; echo DONE";
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        let f = folders();
        let r = run(
            &spec(mode, &f, "/bin/sh", &["-c", script]),
            true,
            Duration::from_secs(30),
        );
        let uid: u32 = r
            .stdout
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or_else(|| panic!("{}", r.text()));
        assert_ne!(uid, 0, "{}", r.text());
        if !root() {
            assert_eq!(uid, nix_uid(), "an ordinary user's bot runs as that user");
        }
        assert!(!r.stdout.contains("READ-SHADOW"), "{}", r.text());
        assert!(!r.stdout.contains("SEES-HOST-TMP"), "{}", r.text());
        for d in ["/home", "/root", "/run", "/var/run"] {
            assert!(
                !r.stdout.contains(&format!("SEES {d}\n")),
                "{d}: {}",
                r.text()
            );
        }
        assert!(r.stdout.contains("DONE"), "{}", r.text());
    }
    let _ = std::fs::remove_file(&host_tmp);
}

/// The bot cannot stop, freeze or trace the process that watches it and
/// ends it (its parent: the launcher with Landlock alone, the sandbox's
/// init in namespaces): the sandbox goes on and ends as the bot does.
#[test]
fn the_bot_cannot_stop_or_trace_its_watcher() {
    let script = r#"
import ctypes, os, signal, time
libc = ctypes.CDLL(None, use_errno=True)
parent = os.getppid()
r = libc.ptrace(16, parent, 0, 0)
print('TRACED' if r == 0 else 'TRACE-REFUSED', flush=True)
for s in (signal.SIGSTOP, signal.SIGKILL):
    try:
        os.kill(parent, s); print('SIGNALLED', s, flush=True)
    except OSError as e:
        print('SIGNAL-REFUSED', s, e, flush=True)
time.sleep(0.5)
print('ALIVE', flush=True)
os._exit(7)
"#;
    for mode in modes() {
        let f = folders();
        let r = run(&python(mode, &f, script), true, Duration::from_secs(30));
        assert!(!r.stdout.contains("TRACED"), "{mode:?}: {}", r.text());
        assert!(r.stdout.contains("ALIVE"), "{mode:?}: {}", r.text());
        // The watcher lived to report the bot's own status.
        assert_eq!(r.verdict, Verdict::Exited(7), "{mode:?}: {}", r.text());
    }
}
