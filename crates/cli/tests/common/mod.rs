//! What the `whistle` command's end-to-end tests share: scratch folders and
//! running the real binary with a time limit.

#![allow(dead_code)]

pub mod builder_ext;

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
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

/// A child process killed (and reaped) when this is dropped, whether the
/// test passed or panicked: a failing test leaves no `league serve`, bot or
/// other process of its own running. It asks politely first (SIGTERM, so a
/// serving league or a runner stops the bots it started), then, after
/// [`Killed::GRACE`], kills (SIGKILL). A process already waited for is left
/// alone.
pub struct Killed(Option<Child>);

impl Killed {
    /// How long a dropped process has to stop after SIGTERM.
    pub const GRACE: Duration = Duration::from_secs(5);

    /// Guards `child`.
    pub fn new(child: Child) -> Killed {
        Killed(Some(child))
    }

    /// Waits for the process to end and collects its piped output (as
    /// [`Child::wait_with_output`]).
    pub fn wait_with_output(mut self) -> std::io::Result<std::process::Output> {
        self.0
            .take()
            .expect("a Killed holds its child until it is dropped or consumed")
            .wait_with_output()
    }
}

impl std::ops::Deref for Killed {
    type Target = Child;
    fn deref(&self) -> &Child {
        self.0
            .as_ref()
            .expect("a Killed holds its child until it is dropped or consumed")
    }
}

impl std::ops::DerefMut for Killed {
    fn deref_mut(&mut self) -> &mut Child {
        self.0
            .as_mut()
            .expect("a Killed holds its child until it is dropped or consumed")
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let Some(child) = self.0.as_mut() else {
            return;
        };
        if !matches!(child.try_wait(), Ok(None)) {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let start = Instant::now();
        while start.elapsed() < Killed::GRACE {
            if !matches!(child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// Starting a process under a [`Killed`] guard.
pub trait SpawnKilled {
    /// [`Command::spawn`], the child guarded (panics if it cannot start).
    fn spawn_killed(&mut self) -> Killed;
}

impl SpawnKilled for Command {
    fn spawn_killed(&mut self) -> Killed {
        Killed::new(self.spawn().unwrap())
    }
}

/// Runs `command` to its end as [`Command::output`] does (stdin closed,
/// stdout and stderr collected), but under a [`Killed`] guard and within
/// `limit`: past it the process is stopped and the test panics.
pub fn output_within(command: &mut Command, limit: Duration) -> std::process::Output {
    use std::io::Read;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn_killed();
    let collect = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = collect(Box::new(child.stdout.take().expect("piped")));
    let stderr = collect(Box::new(child.stderr.take().expect("piped")));
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if started.elapsed() > limit {
            drop(child);
            panic!("{command:?} took more than {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
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
        .spawn_killed();
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

/// Generous clocks: nothing may fault for being slow (a `[time]` table).
pub const CALM: &str = "[time]\nper_action_ms = 20000\ntime_bank_ms = 60000\n";

/// A tournament file for a test, built in order: its head (keys and tables
/// as written), then one `[[bots]]` entry per bot. The text is exactly what
/// the calls say, so a test that compares files or runs keeps its bytes.
#[derive(Clone, Debug)]
#[must_use]
pub struct Event {
    text: String,
}

impl Event {
    /// A file starting `name = "NAME"` and `game = "GAME"`.
    pub fn new(name: &str, game: &str) -> Event {
        Event::with(&format!("name = \"{name}\"\ngame = \"{game}\"\n"))
    }

    /// A file starting with `head` as written (keys, tables).
    pub fn with(head: &str) -> Event {
        Event {
            text: head.to_string(),
        }
    }

    /// Appends `text` as written (keys, a table, an entry).
    pub fn and(mut self, text: &str) -> Event {
        self.text.push_str(text);
        self
    }

    /// Appends the generous clocks of [`CALM`].
    pub fn calm(self) -> Event {
        self.and(CALM)
    }

    /// A bot entry running `COMMAND...` (each word quoted).
    pub fn command(self, name: &str, command: &[&str]) -> Event {
        self.command_with(name, command, "")
    }

    /// A bot entry running `COMMAND...`, then more keys of the entry as
    /// written (`dir = "..."\nstdio = true\n`).
    pub fn command_with(self, name: &str, command: &[&str], keys: &str) -> Event {
        let words: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
        let entry = format!(
            "\n[[bots]]\nname = \"{name}\"\ncommand = [{}]\n{keys}",
            words.join(", ")
        );
        self.and(&entry)
    }

    /// A bot entry playing `whistle bot ARGS`.
    pub fn bot(self, name: &str, args: &[&str]) -> Event {
        let command: Vec<&str> = ["whistle", "bot"].iter().chain(args).copied().collect();
        self.command(name, &command)
    }

    /// A bot entry playing a bundled bot: `whistle bot --bot KIND`.
    pub fn bundled(self, name: &str, kind: &str) -> Event {
        self.bot(name, &["--bot", kind])
    }

    /// A remote bot entry: it connects by itself with `token`.
    pub fn remote(self, name: &str, token: &str) -> Event {
        let entry = format!("\n[[bots]]\nname = \"{name}\"\nremote = true\ntoken = \"{token}\"\n");
        self.and(&entry)
    }

    /// A league's reference bot entry (`[[reference]]`) playing `whistle
    /// bot ARGS`.
    pub fn reference_bot(self, name: &str, args: &[&str]) -> Event {
        let words: Vec<String> = ["whistle", "bot"]
            .iter()
            .chain(args)
            .map(|w| format!("{w:?}"))
            .collect();
        let entry = format!(
            "\n[[reference]]\nname = \"{name}\"\ncommand = [{}]\n",
            words.join(", ")
        );
        self.and(&entry)
    }

    /// The file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Writes the file to `rel` in `s`; returns its path.
    pub fn write(&self, s: &Scratch, rel: &str) -> PathBuf {
        s.write(rel, &self.text)
    }
}

/// A small tournament file of Israeli Whist: `head` (name, seed, hands,
/// format ...) with generous clocks, and one `[[bots]]` entry a `(name,
/// bundled bot)`.
pub fn israeli_tournament(head: &str, bots: &[(&str, &str)]) -> String {
    small_tournament("israeli", head, bots)
}

/// [`israeli_tournament`] of `game`.
pub fn small_tournament(game: &str, head: &str, bots: &[(&str, &str)]) -> String {
    let event = Event::with(&format!(
        "game = \"{game}\"\n{head}\n[time]\nper_action_ms = 20000\n"
    ));
    bots.iter()
        .fold(event, |e, (name, kind)| e.bundled(name, kind))
        .text()
        .to_string()
}

/// Starts `whistle league serve --dir DIR --listen 127.0.0.1:0 --poll-ms 200
/// --progress quiet EXTRA...` in `s` in the background (stdout and stderr
/// in `serve.stdout`, `serve.stderr`), and waits until it has printed
/// every line starting with one of `wait_for`; returns the process and
/// those lines, in the order asked.
pub fn spawn_serve(
    s: &Scratch,
    dir: &str,
    extra: &[&str],
    wait_for: &[&str],
) -> (Killed, Vec<String>) {
    spawn_serve_limited(s, dir, extra, wait_for, None)
}

/// `league serve` of `dir` with its site on a free loopback port, once it
/// listens: the process and the site's `host:port`.
pub fn serve_with_site(s: &Scratch, dir: &str) -> (Killed, String) {
    let (serve, lines) = spawn_serve(
        s,
        dir,
        &["--http", "127.0.0.1:0"],
        &["listening on ", "site on "],
    );
    let site = site_address(&lines[1]);
    (serve, site)
}

/// The site's `host:port` from serve's `site on http://…/` line.
pub fn site_address(line: &str) -> String {
    line["site on http://".len()..]
        .trim_end_matches('/')
        .to_string()
}

/// [`spawn_serve`] with the process's limit on open files (soft and hard)
/// set to `open_files` first.
pub fn spawn_serve_limited(
    s: &Scratch,
    dir: &str,
    extra: &[&str],
    wait_for: &[&str],
    open_files: Option<u32>,
) -> (Killed, Vec<String>) {
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
        .spawn_killed();
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

/// `whistle ARGS` run in `s` to the end (two minutes at most), with
/// `$WHISTLE_CA` set to `ca` if given (removed otherwise).
pub fn whistle_with_ca(s: &Scratch, args: &[&str], ca: Option<&Path>) -> std::process::Output {
    let mut c = Command::new(WHISTLE);
    c.args(args).current_dir(&s.dir).stdin(Stdio::null());
    match ca {
        Some(ca) => c.env("WHISTLE_CA", ca),
        None => c.env_remove("WHISTLE_CA"),
    };
    output_within(&mut c, Duration::from_secs(120))
}

/// `name`'s entry among the bots of `results` (a results.json).
pub fn bot_stats<'a>(results: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == name)
        .unwrap_or_else(|| panic!("no bot {name} in {results}"))
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
pub fn spawn_remote_bot(address: &str, token: &str, kind: &str) -> Killed {
    Command::new(WHISTLE)
        .args(["bot", "--bot", kind, "--address", address, "--token", token])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed()
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
pub fn stop_all(serve: &mut Child, bots: &mut [Killed]) {
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    let _ = serve.wait();
    for b in bots.iter_mut() {
        let _ = b.kill();
        let _ = b.wait();
    }
}
