//! Real processes in real sandboxes: each test runs a small hostile shell or
//! Python program through the launcher and checks what it could not do. Each
//! runs in both modes this machine offers (namespaces, and Landlock alone as
//! on systems without user namespaces).

use std::{
    net::TcpListener,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

use whistle_sandbox::{Limits, Mode, Spec, Verdict};

mod common;
use common::{LAUNCHER, launch, modes, start_piped};

struct Box_ {
    _root: tempfile::TempDir,
    dir: PathBuf,
    scratch: PathBuf,
    outside: PathBuf,
}

fn folders() -> Box_ {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("bot");
    let scratch = root.path().join("scratch");
    let outside = root.path().join("secret");
    for d in [&dir, &scratch, &outside] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(dir.join("mine.txt"), "mine").unwrap();
    std::fs::write(outside.join("seed.toml"), "seed = 42").unwrap();
    Box_ {
        _root: root,
        dir,
        scratch,
        outside,
    }
}

fn spec(mode: Mode, b: &Box_, program: &str, args: &[&str], port: Option<u16>) -> Spec {
    Spec {
        mode,
        program: PathBuf::from(program),
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: b.dir.clone(),
        env: vec![
            ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
            ("HOME".into(), b.scratch.display().to_string()),
            ("SECRET_OF_OTHERS".into(), String::new()),
        ],
        read: Vec::new(),
        scratch: b.scratch.clone(),
        limits: Limits {
            scratch_mib: 4,
            memory_mib: 256,
            processes: 32,
            ..Limits::default()
        },
        referee_port: port,
        stdio: false,
    }
}

fn sh(mode: Mode, b: &Box_, script: &str) -> Output {
    sh_with(spec(mode, b, "/bin/sh", &["-c", script], None))
}

fn sh_with(s: Spec) -> Output {
    launch(s.mode, || {
        s.command(Path::new(LAUNCHER)).stdin(Stdio::null()).output()
    })
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

#[test]
fn a_bot_reads_its_folder_and_nothing_private_outside() {
    for mode in modes() {
        let b = folders();
        let o = sh(
            mode,
            &b,
            &format!(
                "cat mine.txt; echo; cat {0}/seed.toml && echo READ-SECRET; ls {0} && echo LISTED; \
                 cat /etc/hostname >/dev/null && echo SYSTEM-OK",
                b.outside.display()
            ),
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.starts_with("mine"), "{mode:?}: {}", text(&o));
        assert!(
            !out.contains("READ-SECRET") && !out.contains("LISTED"),
            "{mode:?}: {}",
            text(&o)
        );
        assert!(out.contains("SYSTEM-OK"), "{mode:?}: {}", text(&o));
    }
}

#[test]
fn a_bot_writes_only_its_scratch_and_only_up_to_its_size() {
    for mode in modes() {
        let b = folders();
        let o = sh(
            mode,
            &b,
            &format!(
                "echo x > $HOME/note && echo SCRATCH-OK; echo x > {}/planted && echo WROTE-OUTSIDE; \
                 echo x > mine2.txt && echo WROTE-DIR; \
                 dd if=/dev/zero of=$HOME/fill bs=1M count=65 2>/dev/null; echo dd=$?",
                b.outside.display()
            ),
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("SCRATCH-OK"), "{mode:?}: {}", text(&o));
        assert!(
            !out.contains("WROTE-OUTSIDE") && !out.contains("WROTE-DIR"),
            "{mode:?}: {}",
            text(&o)
        );
        assert!(!b.outside.join("planted").exists());
        // 64 MiB into a 4 MiB scratch (namespaces: a tmpfs) or past the
        // 64 MiB file-size limit (Landlock alone) fails.
        assert!(!out.contains("dd=0"), "{mode:?}: {}", text(&o));
        if mode == Mode::Namespaces {
            assert!(
                std::fs::read_dir(&b.scratch).unwrap().next().is_none(),
                "the scratch tmpfs goes with the sandbox"
            );
        }
    }
}

#[test]
fn a_bot_sees_no_other_process_and_signals_none() {
    let mut victim = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = victim.id();
    for mode in modes() {
        let b = folders();
        let o = sh(
            mode,
            &b,
            &format!(
                "cat /proc/{pid}/environ >/dev/null 2>&1 && echo READ-ENV; \
                 cat /proc/{pid}/cmdline >/dev/null 2>&1 && echo READ-CMDLINE; \
                 kill -0 {pid} 2>/dev/null && echo CAN-SIGNAL; kill -9 {pid} 2>/dev/null; \
                 ls /proc 2>/dev/null | grep -c '^[0-9]'"
            ),
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            !out.contains("READ-ENV") && !out.contains("READ-CMDLINE"),
            "{mode:?}: {}",
            text(&o)
        );
        assert!(!out.contains("CAN-SIGNAL"), "{mode:?}: {}", text(&o));
        if mode == Mode::Namespaces {
            let n: u32 = out.lines().last().unwrap().trim().parse().unwrap();
            assert!(n <= 4, "only the sandbox's own processes: {}", text(&o));
        }
    }
    assert!(
        victim.try_wait().unwrap().is_none(),
        "the other process lives"
    );
    victim.kill().unwrap();
}

#[test]
fn a_bot_connects_to_nothing_but_the_referee() {
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let referee = TcpListener::bind("127.0.0.1:0").unwrap();
    let (op, rp) = (
        other.local_addr().unwrap().port(),
        referee.local_addr().unwrap().port(),
    );
    let script = format!(
        "import socket\n\
         for name, port in (('other', {op}), ('referee', {rp})):\n\
         \x20   try:\n\
         \x20       socket.create_connection(('127.0.0.1', port), timeout=2); print(name, 'connected')\n\
         \x20   except OSError as e: print(name, 'refused', e)\n\
         try:\n\
         \x20   s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); print('listening')\n\
         except OSError as e: print('no listening', e)\n"
    );
    for mode in modes() {
        let b = folders();
        let port = (mode == Mode::Landlock).then_some(rp);
        let o = sh_with(spec(
            mode,
            &b,
            "/usr/bin/env",
            &["python3", "-c", &script],
            port,
        ));
        let out = String::from_utf8_lossy(&o.stdout);
        if !o.status.success() && String::from_utf8_lossy(&o.stderr).contains("python3") {
            eprintln!("no python3 here: {}", text(&o));
            continue;
        }
        assert!(out.contains("other refused"), "{mode:?}: {}", text(&o));
        if mode == Mode::Landlock {
            assert!(out.contains("referee connected"), "{mode:?}: {}", text(&o));
            assert!(out.contains("no listening"), "{mode:?}: {}", text(&o));
        }
    }
}

#[test]
fn a_fork_bomb_is_bounded() {
    for mode in modes() {
        if mode == Mode::Landlock && nix_root() {
            continue; // refused as root: see Support::mode
        }
        let b = folders();
        // Forty forks at once, each trying forty more: the process limit (32)
        // refuses most, the sandbox ends, the machine is unharmed.
        let o = sh(
            mode,
            &b,
            "i=0; while [ $i -lt 200 ]; do (sleep 2 &) 2>/dev/null || echo REFUSED; i=$((i+1)); done 2>&1 | sort -u",
        );
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        let v = Verdict::of_exit(o.status.code(), o.status.signal(), &Limits::default());
        assert!(
            matches!(v, Verdict::Processes(_))
                || out.contains("REFUSED")
                || err.contains("fork")
                || err.contains("Resource"),
            "{mode:?}: {v}: {}",
            text(&o)
        );
    }
}

#[test]
fn a_huge_allocation_is_refused_and_said() {
    for mode in modes() {
        let b = folders();
        let o = sh_with(spec(
            mode,
            &b,
            "/usr/bin/env",
            &[
                "python3",
                "-c",
                "x = bytearray(10 << 30); print('ALLOCATED')",
            ],
            None,
        ));
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!out.contains("ALLOCATED"), "{mode:?}: {}", text(&o));
        assert!(
            whistle_sandbox::says_out_of_memory(&err),
            "{mode:?}: {}",
            text(&o)
        );
    }
}

#[test]
fn resident_memory_past_the_limit_stops_the_sandbox_with_its_verdict() {
    // Many small allocations stay under the data limit each but add up:
    // the watchdog stops them (namespaces mode; Landlock alone relies on the
    // data limit).
    for mode in modes().into_iter().filter(|m| *m == Mode::Namespaces) {
        let b = folders();
        let mut s = spec(
            mode,
            &b,
            "/usr/bin/env",
            &[
                "python3",
                "-c",
                "import time\nxs=[]\nfor i in range(1000):\n    xs.append(bytearray(1<<20)); time.sleep(0.002)\nprint('SURVIVED')",
            ],
            None,
        );
        s.limits.memory_mib = 64;
        let o = sh_with(s.clone());
        let v = Verdict::of_exit(o.status.code(), o.status.signal(), &s.limits);
        assert!(
            matches!(v, Verdict::Memory(64))
                || whistle_sandbox::says_out_of_memory(&String::from_utf8_lossy(&o.stderr)),
            "{v}: {}",
            text(&o)
        );
        assert!(!String::from_utf8_lossy(&o.stdout).contains("SURVIVED"));
    }
}

#[test]
fn the_environment_is_only_what_the_spec_gives() {
    // SAFETY of the test's claim: the caller's own variables must not leak.
    for mode in modes() {
        let b = folders();
        let o = sh(mode, &b, "env | sort");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            !out.contains("CARGO") && !out.contains("WHISTLE_SANDBOX_SPEC"),
            "{mode:?}: {}",
            text(&o)
        );
        assert!(out.contains("HOME="), "{}", text(&o));
    }
}

fn nix_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0"))
}

/// The nice value of process `pid` (the 19th field of its `stat`).
fn nice_of(pid: u32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, fields) = stat.rsplit_once(')')?;
    fields.split_whitespace().nth(16)?.parse().ok()
}

/// Whether this process may raise its priority again (`CAP_SYS_NICE`).
fn may_raise_priority() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
        .is_some_and(|caps| caps & (1 << 23) != 0)
}

/// The bot runs at its caller's priority, whatever it is; run as root, the
/// launcher's own work (making and ending the sandbox) runs at the least,
/// nice 19, so that it never sets back a bot that plays beside it. With
/// Landlock alone the launcher watches the limits and runs at the caller's.
#[test]
fn the_bot_runs_at_its_callers_priority_and_the_launcher_yields() {
    let yields = nix_root() && may_raise_priority();
    for mode in modes() {
        for caller in [0, 5] {
            let b = folders();
            let s = spec(mode, &b, "/bin/sh", &["-c", "nice; sleep 1"], None);
            // `nice` prints its own nice value. A thread's nice value is its own,
            // and its children's.
            let (launcher, o) = std::thread::scope(|t| {
                t.spawn(|| {
                    rustix::process::setpriority_process(None, caller).unwrap();
                    let child = start_piped(&s);
                    std::thread::sleep(std::time::Duration::from_millis(500));
                    let launcher = nice_of(child.id());
                    (launcher, child.wait_with_output().unwrap())
                })
                .join()
                .unwrap()
            });
            let bot: Option<i32> = String::from_utf8_lossy(&o.stdout).trim().parse().ok();
            assert_eq!(bot, Some(caller), "{mode:?} caller {caller}: {}", text(&o));
            let expected = if yields && mode == Mode::Namespaces {
                19
            } else {
                caller
            };
            assert_eq!(
                launcher,
                Some(expected),
                "{mode:?} caller {caller}: the launcher's nice value"
            );
        }
    }
}
