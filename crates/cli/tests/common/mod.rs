//! What the `whistle` command's end-to-end tests share: scratch folders and
//! running the real binary with a time limit.

#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    process::{Command, ExitStatus, Stdio},
    sync::atomic::{AtomicUsize, Ordering},
    time::{Duration, Instant},
};

/// The `whistle` binary under test.
pub const WHISTLE: &str = env!("CARGO_BIN_EXE_whistle");

/// A scratch directory, removed at the end of a passing test (kept, and
/// named, when the test fails).
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir =
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch {
            dir: std::fs::canonicalize(&dir).unwrap(),
        }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.path(rel);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("scratch directory kept: {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// A finished `whistle` command.
pub struct Ran {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `whistle ARGS` in `s` (its working directory), killing it after `limit`.
pub fn whistle(s: &Scratch, args: &[&str], limit: Duration) -> Ran {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let (out_path, err_path) = (
        s.path(&format!("cmd{n}.stdout")),
        s.path(&format!("cmd{n}.stderr")),
    );
    let mut child = Command::new(WHISTLE)
        .args(args)
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`whistle {}` took more than {limit:?}; stderr:\n{}",
                args.join(" "),
                std::fs::read_to_string(&err_path).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ran {
        status,
        stdout: std::fs::read_to_string(&out_path).unwrap(),
        stderr: std::fs::read_to_string(&err_path).unwrap(),
    }
}

/// Runs `whistle ARGS` in `s` and asserts that it succeeded (two minutes
/// at most).
pub fn whistle_ok(s: &Scratch, args: &[&str]) -> Ran {
    let r = whistle(s, args, Duration::from_secs(120));
    assert!(
        r.status.success(),
        "`whistle {}` failed ({}):\n{}\n{}",
        args.join(" "),
        r.status,
        r.stdout,
        r.stderr
    );
    r
}

/// A small tournament file of Israeli Whist: `head` (name, seed, hands,
/// format ...) with generous clocks, and one `[[bots]]` entry a `(name,
/// bundled bot)`.
pub fn israeli_tournament(head: &str, bots: &[(&str, &str)]) -> String {
    let mut t = format!("game = \"israeli\"\n{head}\n[time]\nper_action_ms = 20000\n");
    for (name, bot) in bots {
        t.push_str(&format!(
            "\n[[bots]]\nname = \"{name}\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"{bot}\"]\n"
        ));
    }
    t
}

/// Starts `whistle league serve --dir DIR --listen 127.0.0.1:0 --poll-ms 200
/// --progress quiet EXTRA...` in `s` in the background (stdout and stderr
/// in `serve.stdout`, `serve.stderr`), and waits until it has printed
/// every line starting with one of `wait_for`; returns the process and
/// those lines, in the order asked.
// The child goes to the caller, which stops and waits for it.
#[allow(clippy::zombie_processes)]
pub fn spawn_serve(
    s: &Scratch,
    dir: &str,
    extra: &[&str],
    wait_for: &[&str],
) -> (std::process::Child, Vec<String>) {
    spawn_serve_limited(s, dir, extra, wait_for, None)
}

/// [`spawn_serve`] with the process's limit on open files (soft and hard)
/// set to `open_files` first.
#[allow(clippy::zombie_processes)]
pub fn spawn_serve_limited(
    s: &Scratch,
    dir: &str,
    extra: &[&str],
    wait_for: &[&str],
    open_files: Option<u32>,
) -> (std::process::Child, Vec<String>) {
    let out = s.path("serve.stdout");
    let mut args = vec![
        "league",
        "serve",
        "--dir",
        dir,
        "--listen",
        "127.0.0.1:0",
        "--poll-ms",
        "200",
        "--progress",
        "quiet",
    ];
    args.extend_from_slice(extra);
    let mut command = match open_files {
        None => Command::new(WHISTLE),
        Some(n) => {
            let mut c = Command::new("sh");
            c.args([
                "-c",
                &format!("ulimit -n {n} && exec \"$0\" \"$@\""),
                WHISTLE,
            ]);
            c
        }
    };
    let mut child = command
        .args(&args)
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(s.path("serve.stderr")).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let found: Vec<String> = wait_for
            .iter()
            .filter_map(|p| text.lines().find(|l| l.starts_with(p)).map(str::to_string))
            .collect();
        if found.len() == wait_for.len() {
            return (child, found);
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "serve never printed {wait_for:?}: {}",
                std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `whistle ARGS` run in `s` to the end, with `$WHISTLE_CA` set to `ca` if
/// given (removed otherwise).
pub fn whistle_with_ca(s: &Scratch, args: &[&str], ca: Option<&Path>) -> std::process::Output {
    let mut c = Command::new(WHISTLE);
    c.args(args).current_dir(&s.dir).stdin(Stdio::null());
    match ca {
        Some(ca) => c.env("WHISTLE_CA", ca),
        None => c.env_remove("WHISTLE_CA"),
    };
    c.output().unwrap()
}

/// A match log's text, whether it is still `X.jsonl` or, its round closed,
/// compressed to `X.jsonl.gz` (either path may be given).
pub fn read_log(path: &Path) -> String {
    let plain = path
        .to_str()
        .and_then(|p| p.strip_suffix(".gz"))
        .map_or_else(|| path.to_path_buf(), PathBuf::from);
    let mut gz = plain.as_os_str().to_owned();
    gz.push(".gz");
    // The plain file first: it may be compressed (and go) meanwhile.
    let bytes = whistle_replay::read_log_bytes(&plain)
        .or_else(|_| whistle_replay::read_log_bytes(Path::new(&gz)))
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

/// Adds `names` to the league in `dir` (`whistle league add-bot`), and
/// returns the tokens it printed, in order.
pub fn add_league_bots(s: &Scratch, dir: &str, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            whistle_ok(s, &["league", "add-bot", n, "--dir", dir])
                .stdout
                .lines()
                .find_map(|l| {
                    l.strip_prefix("token (shown once; the league keeps only its hash): ")
                })
                .expect("add-bot prints the token")
                .to_string()
        })
        .collect()
}

/// A bundled bot (`whistle bot --bot KIND`) connecting by itself to
/// `address` with `token`, its output discarded.
pub fn spawn_remote_bot(address: &str, token: &str, kind: &str) -> std::process::Child {
    Command::new(WHISTLE)
        .args(["bot", "--bot", kind, "--address", address, "--token", token])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The address in a serving league's `listening on ADDR admin-token ...`.
pub fn listening_address(line: &str) -> String {
    line["listening on ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

/// Stops a serving league (SIGTERM, then waits for it) and kills `bots`.
pub fn stop_all(serve: &mut std::process::Child, bots: &mut [std::process::Child]) {
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    let _ = serve.wait();
    for b in bots.iter_mut() {
        let _ = b.kill();
        let _ = b.wait();
    }
}
