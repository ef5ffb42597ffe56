//! Bot processes: started with the launch contract, their stderr kept in a
//! size-capped log, restarted after a crash (a few times), always stopped.
//!
//! # When a bot is gone
//!
//! A bot process is *gone* when none of its processes runs any more; the
//! runner starts the next instance of a bot that will see the same deals
//! only then (docs/fair-play.md, "One view of a deal per bot"). whistle
//! starts each bot (or its sandbox's launcher) as the leader of a process
//! group of its own, and [`BotProcess::stop_and_wait`] returns, and a
//! crashed bot is started again, only after
//!
//! 1. the leader has exited and whistle has reaped it, and then
//! 2. no process of that group is alive (what is left is killed with
//!    `SIGKILL` and waited for; zombies do not count: they run nothing).
//!
//! The contract with the sandbox (`whistle-sandbox`, its module doc) is
//! that the launcher's exit means its bot is gone, except for processes
//! that stay in the launcher's process group, which step 2 ends. In
//! namespace mode the launcher exits only after the sandbox's init, and the
//! kernel ends every process of a PID namespace before the exit of its
//! init is reported; when whistle kills the group (a bot that outstays
//! [`STOP_GRACE`]), the init is in the group, so step 2 waits for it, and
//! with it for the whole namespace. In Landlock mode the launcher becomes
//! the bot, and the bot's descendants are in its group unless they leave it
//! (`setsid`): keeping those is the sandbox's part of the contract (its
//! process tracking), not the group's.

use std::{
    path::{Path, PathBuf},
    process::Stdio,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU32, Ordering},
    },
    time::Duration,
};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    process::{Child, Command},
    sync::watch,
    task::JoinHandle,
};
use tracing::{info, warn};
use whistle_sandbox::{Limits, Mode, Spec, Verdict};

/// Bytes of a bot's stderr kept per tournament; the rest is dropped with a note.
pub const STDERR_CAP: u64 = 1 << 20;
/// How long a bot told to stop (its matches are over) may take to exit by
/// itself before its process group is killed.
pub const STOP_GRACE: Duration = Duration::from_secs(3);
/// How long the processes of a killed group may take to be gone before
/// whistle goes on regardless (and says so): only a process stuck in the
/// kernel outlives a `SIGKILL` that long.
const GONE_WITHIN: Duration = Duration::from_secs(10);
/// How many times a crashed bot is started again; after that it is out of
/// the event.
pub const MAX_RESTARTS: u32 = 3;

/// Called once when a bot is out of the event (its process kept ending),
/// with its name and the reason.
pub type OnOut = Box<dyn FnOnce(&str, &str) + Send>;

/// Called each time a bot's process ends during the event, with its name
/// and how many times it has ended so far (see [`BotProcess::start_counted`]).
pub type OnEnd = Box<dyn Fn(&str, u32) + Send + Sync>;

/// A supervised bot process.
#[derive(Debug)]
pub struct BotProcess {
    name: String,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
    restarts: Arc<AtomicU32>,
    crashed: Arc<AtomicBool>,
    verdicts: Arc<std::sync::Mutex<Vec<String>>>,
}

/// Everything needed to start a bot.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The bot's name.
    pub name: String,
    /// Program and arguments (`whistle` is the running whistle binary), as
    /// the bot's configuration says them: [`started`] says what is started.
    pub command: Vec<String>,
    /// Working directory.
    pub dir: PathBuf,
    /// The referee's address for `WHISTLE_ADDRESS`.
    pub address: String,
    /// The bot token (or seat token) for `WHISTLE_TOKEN`.
    pub token: String,
    /// Where its stderr goes.
    pub stderr_log: PathBuf,
    /// Its sandbox; `None`: the organiser opted out.
    pub sandbox: Option<Sandboxed>,
    /// One seat's instance: a clean exit means its match is over (it is
    /// not started again).
    pub once: bool,
    /// A stdio bot (docs/stdio.md): whistle holds the token and speaks to
    /// the referee at `address` for it; the bot gets neither.
    pub stdio: bool,
}

/// How a bot's sandbox is made.
#[derive(Debug, Clone)]
pub struct Sandboxed {
    /// The launcher program (the running `whistle` or its small launcher).
    pub launcher: PathBuf,
    /// The confinement.
    pub mode: Mode,
    /// The bot's limits.
    pub limits: Limits,
    /// What it may read beyond the system's paths and its folder.
    pub read: Vec<PathBuf>,
    /// [`Mode::Landlock`]: the referee's TCP port.
    pub referee_port: Option<u16>,
    /// Where its scratch folders are made (a private folder of the run).
    pub runtime: PathBuf,
}

/// The program to start for a command's first word: `whistle` is the
/// running whistle binary (for `whistle bot ...`, [`started`] starts the
/// bundled bot binary beside it where there is one); a relative path with a
/// separator (`bots/my-bot`, `./run.sh`) is taken from the bot's working
/// directory (the tournament file's folder); a bare name is looked up in
/// `PATH`.
pub fn program(word: &str, dir: &Path) -> PathBuf {
    if word == "whistle" {
        if let Ok(me) = std::env::current_exe() {
            return me;
        }
    }
    let path = Path::new(word);
    if path.is_relative() && path.components().count() > 1 {
        return dir.join(path);
    }
    path.to_path_buf()
}

/// The bundled bot binary ([`whistle_bot::client::BUNDLED_BIN`]) in the
/// running `whistle`'s folder, when there is one that answers this very
/// build ([`whistle_bot::client::BUILD`]): it runs what `whistle bot` runs
/// and starts in a fraction of the time. Asked once for the life of the
/// process; `None` (a binary missing, or of another build): `whistle` runs
/// its bots itself.
pub fn bundled_bot() -> Option<&'static Path> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| bundled_bot_beside(&std::env::current_exe().ok()?))
        .as_deref()
}

/// The bundled bot binary beside `program` when it answers this build.
fn bundled_bot_beside(program: &Path) -> Option<PathBuf> {
    use whistle_bot::client::{BUILD, BUILD_ARG, BUNDLED_BIN};
    let small = program.parent()?.join(BUNDLED_BIN);
    if !small.is_file() {
        return None;
    }
    let out = std::process::Command::new(&small)
        .arg(BUILD_ARG)
        .env_clear()
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    (out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == BUILD).then_some(small)
}

/// [`bundled_bot`] when `command` (run in `dir`) is `whistle bot ...`
/// (its first word `whistle` or the running binary's path) and there is
/// one: what [`started`] starts in its stead.
pub fn bundled_for(command: &[String], dir: &Path) -> Option<&'static Path> {
    let whistle_bot = command.get(1).is_some_and(|w| w == "bot")
        && std::env::current_exe().is_ok_and(|me| me == program(&command[0], dir));
    whistle_bot.then(bundled_bot).flatten()
}

/// The program to start for `command` (run in `dir`) and its arguments:
/// its first word as [`program`] resolves it, except that `whistle bot
/// ARGS` is the bundled bot binary with `ARGS` where there is one
/// ([`bundled_for`]): the same bot, parsing the same arguments, with the
/// same environment and limits.
pub fn started(command: &[String], dir: &Path) -> (PathBuf, Vec<String>) {
    match bundled_for(command, dir) {
        Some(small) => (small.to_path_buf(), command[2..].to_vec()),
        None => (program(&command[0], dir), command[1..].to_vec()),
    }
}

/// A started bot process and, when sandboxed, its scratch folder (removed
/// when this is dropped, after the process has ended).
struct Started {
    child: Child,
    /// Its process group (the leader's pid, kept: a reaped child has none).
    group: Option<u32>,
    _scratch: Option<tempfile::TempDir>,
    /// A stdio bot's bridge to the referee, stopped with the process.
    _bridge: Option<AbortOnDrop>,
    /// Its sandbox's network namespace, once seen (namespaces mode): handed
    /// to a later sandbox or let go of with others once the process has
    /// ended ([`Networks`]).
    netns: Arc<std::sync::Mutex<Option<std::fs::File>>>,
    /// The ended sandbox's network namespace its launcher was handed to
    /// enter (run as root), held until the launcher has entered it and as
    /// long as the sandbox lives.
    handed: Option<std::fs::File>,
}

impl Started {
    /// Once the process has ended and its group has been waited for:
    /// `gone`, whether every process of it is gone (the group's wait did
    /// not give up). Only then may its network namespace go to another
    /// sandbox.
    fn ended(&mut self, gone: bool) {
        let seen = self
            .netns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        Networks::ended(seen, self.handed.take(), gone);
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        // Not known to have ended (its task was stopped): let go of, never
        // handed on.
        let seen = self
            .netns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        for ns in seen.into_iter().chain(self.handed.take()) {
            Networks::let_go(ns);
        }
    }
}

/// The network namespaces of sandboxes that ended, each held by a
/// descriptor. Run as root, whistle hands one to each new sandbox's
/// launcher, which enters it rather than make one when it holds no socket
/// (`whistle_sandbox::NETNS_VAR`): making a network namespace and tearing
/// it down were about a sixth of a sandboxed instance's CPU (docs/fair-play.md,
/// "One network namespace after another", says why a namespace whose
/// sandbox is gone carries nothing to the next). A namespace is kept for
/// that only once every process of its sandbox is gone, and handed to one
/// launcher at a time.
///
/// The others (an ordinary user's sandboxes, which cannot enter them; those
/// past [`NETNS_KEPT`]; those a launcher did not enter) are let go of
/// [`NETNS_BATCH`] at a time. The kernel tears a namespace down in a
/// worker, outside the time of any process of ours, once its last
/// reference goes, and part of that work (walking the machine's whole TCP
/// metrics table among it) is done once per batch of namespaces ended
/// together: let go of one at a time, the demo's 960 cost that worker
/// about 0.6 s of CPU; 16 at a time, about 0.4 s.
struct Networks;

/// How many ended sandboxes' network namespaces are let go of together.
const NETNS_BATCH: usize = 16;
/// How many ended sandboxes' network namespaces are kept to be handed on
/// (more than the sandboxes that run at once in any usual event).
const NETNS_KEPT: usize = 64;

/// Namespaces to let go of ([`NETNS_BATCH`] at a time).
static ENDED_NETNS: std::sync::Mutex<Vec<std::fs::File>> = std::sync::Mutex::new(Vec::new());
/// Namespaces to hand to new sandboxes (every process of theirs gone).
static FREE_NETNS: std::sync::Mutex<Vec<std::fs::File>> = std::sync::Mutex::new(Vec::new());

impl Networks {
    fn let_go(ns: std::fs::File) {
        let batch = {
            let mut held = ENDED_NETNS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            held.push(ns);
            if held.len() < NETNS_BATCH {
                return;
            }
            std::mem::take(&mut *held)
        };
        drop(batch);
    }

    /// A namespace to hand to a new sandbox's launcher, where whistle runs
    /// as root (only root's launcher can enter one).
    fn take() -> Option<std::fs::File> {
        if !nix::unistd::geteuid().is_root() {
            return None;
        }
        FREE_NETNS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .pop()
    }

    /// A sandbox ended (`gone`: every process of it): the namespace it was
    /// seen in (`seen`) and the one it was handed (`handed`). The one it
    /// ran in is kept to be handed on; one it was handed and did not enter
    /// (it held a socket, say) is let go of.
    fn ended(seen: Option<std::fs::File>, handed: Option<std::fs::File>, gone: bool) {
        use std::os::unix::fs::MetadataExt;
        let id = |f: &std::fs::File| f.metadata().ok().map(|m| (m.dev(), m.ino()));
        let (keep, drop_too) = match (seen, handed) {
            (Some(s), Some(h)) if id(&s).is_some() && id(&s) == id(&h) => (Some(h), None),
            (seen, handed) => (seen, handed),
        };
        if let Some(ns) = drop_too {
            Networks::let_go(ns);
        }
        let Some(ns) = keep else {
            return;
        };
        if !gone {
            Networks::let_go(ns);
            return;
        }
        let mut free = FREE_NETNS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if free.len() < NETNS_KEPT {
            free.push(ns);
        } else {
            drop(free);
            Networks::let_go(ns);
        }
    }

    /// Holds the network namespace of the sandbox whose launcher is `pid`
    /// once the launcher has entered it (a few milliseconds after its
    /// start), into `into`; gives up when the launcher is gone first.
    fn watch(pid: u32, into: Arc<std::sync::Mutex<Option<std::fs::File>>>) {
        use std::os::unix::fs::MetadataExt;
        let Ok(own) = std::fs::metadata("/proc/self/ns/net").map(|m| m.ino()) else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let path = format!("/proc/{pid}/ns/net");
            for _ in 0..500 {
                let Ok(ns) = std::fs::File::open(&path) else {
                    return;
                };
                if ns.metadata().is_ok_and(|m| m.ino() != own) {
                    *into
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(ns);
                    return;
                }
                drop(ns);
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        });
    }
}

/// A task aborted when this is dropped.
struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A stdio bot's bridge to the referee (`crate::stdio`), on the piped
/// stdin and stdout of its process; `None` for any other bot.
pub fn bridge(child: &mut Child, l: &Launch) -> Option<JoinHandle<()>> {
    if !l.stdio {
        return None;
    }
    let (stdin, stdout) = (child.stdin.take()?, child.stdout.take()?);
    Some(crate::stdio::spawn(
        stdin,
        stdout,
        l.address.clone(),
        l.token.clone(),
        l.name.clone(),
    ))
}

fn spawn(l: &Launch) -> std::io::Result<Started> {
    let (mut cmd, scratch) = command(l)?;
    let namespaces = l.sandbox.as_ref().map(|s| s.mode) == Some(Mode::Namespaces);
    let handed = if namespaces { Networks::take() } else { None };
    if let Some(ns) = &handed {
        cmd.env(
            whistle_sandbox::NETNS_VAR,
            whistle_sandbox::held_network(ns),
        );
    }
    let piped = |on: bool| if on { Stdio::piped() } else { Stdio::null() };
    cmd.stdin(piped(l.stdio))
        .stdout(piped(l.stdio))
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    // In namespaces, run as root, the launcher is started as PID 1 of the
    // sandbox's PID namespace, and is its init too: one process start fewer.
    let mut child = if namespaces {
        whistle_sandbox::in_own_pid_namespace(|| cmd.spawn())?
    } else {
        cmd.spawn()?
    };
    let group = child.id();
    let bridge = bridge(&mut child, l).map(AbortOnDrop);
    let netns = Arc::new(std::sync::Mutex::new(None));
    if let (Some(pid), true) = (group, namespaces) {
        Networks::watch(pid, netns.clone());
    }
    Ok(Started {
        child,
        group,
        _scratch: scratch,
        _bridge: bridge,
        netns,
        handed,
    })
}

/// The path of the run's private folder every sandbox (namespaces) mounts
/// its scratch `tmpfs` on: an empty folder of the host's, made once a run.
pub const SCRATCH: &str = "scratch";

/// The command that starts `l` with the launch contract (in its sandbox
/// when it has one, with a fresh scratch folder: a `tmpfs` of its own in
/// namespaces, else a folder of the host's that lives as long as the
/// returned one), its standard streams left for the caller to set.
///
/// # Errors
/// If the scratch folder cannot be made.
pub fn command(l: &Launch) -> std::io::Result<(Command, Option<tempfile::TempDir>)> {
    Ok(match &l.sandbox {
        None => {
            let (program, args) = started(&l.command, &l.dir);
            let mut cmd = Command::new(program);
            cmd.args(args)
                .current_dir(&l.dir)
                .env("WHISTLE_BOT_NAME", &l.name);
            for (k, v) in contract(l) {
                cmd.env(k, v);
            }
            (cmd, None)
        }
        Some(s) => {
            // Said here, not by the launcher inside the sandbox.
            let p = program(&l.command[0], &l.dir);
            let found = if p.components().count() > 1 {
                p.is_file()
            } else {
                std::env::var("PATH")
                    .ok()
                    .and_then(|path| whistle_sandbox::which(&l.command[0], &path))
                    .is_some()
            };
            if !found {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("no program {}", p.display()),
                ));
            }
            // In namespaces the scratch folder is a `tmpfs` the sandbox
            // mounts on this path of its own private root: nothing of the
            // host's is made for an instance (a folder made and removed on
            // the host's disk for each cost the runner about 0.4 ms of CPU
            // on ext4). The path is the same for every instance, so it tells
            // a bot nothing. With Landlock alone it is a fresh folder of the
            // host's disk, which the launcher watches.
            let scratch = match s.mode {
                Mode::Namespaces => None,
                Mode::Landlock => Some(
                    tempfile::Builder::new()
                        .prefix("scratch-")
                        .tempdir_in(&s.runtime)?,
                ),
            };
            let scratch_path = scratch
                .as_ref()
                .map_or_else(|| s.runtime.join(SCRATCH), |d| d.path().to_path_buf());
            let home = scratch_path.display().to_string();
            let mut env = contract(l);
            env.extend([
                ("WHISTLE_BOT_NAME".into(), l.name.clone()),
                ("HOME".into(), home.clone()),
                ("TMPDIR".into(), home),
                (
                    "PATH".into(),
                    std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into()),
                ),
                (
                    "LANG".into(),
                    std::env::var("LANG").unwrap_or_else(|_| "C.UTF-8".into()),
                ),
            ]);
            if let Ok(tz) = std::env::var("TZ") {
                env.push(("TZ".into(), tz));
            }
            let (program, args) = started(&l.command, &l.dir);
            let spec = Spec {
                mode: s.mode,
                program,
                args,
                dir: l.dir.clone(),
                env,
                read: s.read.clone(),
                scratch: scratch_path,
                limits: s.limits,
                // A stdio bot reaches nothing: whistle speaks for it.
                referee_port: s.referee_port.filter(|_| !l.stdio),
                stdio: l.stdio,
            };
            (Command::from(spec.command(&s.launcher)), scratch)
        }
    })
}

/// The launch contract's variables: where the referee is and the token, or
/// for a stdio bot only `WHISTLE_STDIO=1` (whistle keeps the token).
fn contract(l: &Launch) -> Vec<(String, String)> {
    if l.stdio {
        vec![("WHISTLE_STDIO".into(), "1".into())]
    } else {
        vec![
            ("WHISTLE_ADDRESS".into(), l.address.clone()),
            ("WHISTLE_TOKEN".into(), l.token.clone()),
        ]
    }
}

/// How a bot process ended, in words, and whether a limit ended it: a sandbox's verdict (a limit) where there
/// is one, else the exit status; `tail` is the end of its stderr.
pub fn how_it_ended(
    status: &std::io::Result<std::process::ExitStatus>,
    sandbox: Option<&Sandboxed>,
    tail: &str,
) -> (String, bool) {
    let Ok(status) = status else {
        return (
            status
                .as_ref()
                .err()
                .map(ToString::to_string)
                .unwrap_or_default(),
            false,
        );
    };
    let Some(s) = sandbox else {
        return (status.to_string(), false);
    };
    use std::os::unix::process::ExitStatusExt;
    let v = Verdict::of_exit(status.code(), status.signal(), &s.limits);
    if v.is_limit() {
        return (v.to_string(), true);
    }
    if !status.success() && whistle_sandbox::says_out_of_memory(tail) {
        return (
            format!(
                "memory limit {} MiB (an allocation above it was refused; {v})",
                s.limits.memory_mib
            ),
            true,
        );
    }
    (v.to_string(), false)
}

/// How much of the end of a bot's stderr is kept to explain its exit.
const TAIL: usize = 4096;

/// What each stderr log holds or has been promised (bytes), and whether
/// its note of the cap was written: shared by every process that writes to
/// one log, as the fresh instances of a bot do, several at once (each used
/// to count from the size it found when it started: eight instances wrote
/// 4 MiB into a log capped at 1).
static LOG_BYTES: std::sync::Mutex<Vec<(PathBuf, u64, bool)>> = std::sync::Mutex::new(Vec::new());

/// Reserves up to `n` bytes of `log`'s [`STDERR_CAP`] (which holds
/// `on_disk` bytes when it is first seen: a resumed run's): how many may be
/// written, and whether the note that the cap is reached is now due (once a
/// log).
fn reserve(log: &Path, on_disk: u64, n: usize) -> (usize, bool) {
    // A poisoned lock only loses counts: the state is plain numbers.
    let mut logs = LOG_BYTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let at = match logs.iter().position(|(p, _, _)| p == log) {
        Some(at) => at,
        None => {
            logs.push((log.to_path_buf(), on_disk, on_disk >= STDERR_CAP));
            logs.len() - 1
        }
    };
    let (_, used, noted) = &mut logs[at];
    let left = usize::try_from(STDERR_CAP.saturating_sub(*used)).unwrap_or(usize::MAX);
    let take = n.min(left);
    *used += take as u64;
    let note = take < n && !*noted;
    *noted |= note;
    (take, note)
}

/// Copies `from` into the log until the cap, then drains the rest; the last
/// [`TAIL`] bytes also go to `tail`.
async fn capture(
    mut from: tokio::process::ChildStderr,
    log: PathBuf,
    tail: Arc<std::sync::Mutex<Vec<u8>>>,
) {
    let file = tokio::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .await;
    let Ok(mut file) = file else {
        warn!(log = %log.display(), "cannot open the bot's stderr log");
        return;
    };
    let on_disk = file.metadata().await.map(|m| m.len()).unwrap_or(0);
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        {
            let mut t = tail.lock().expect("tail");
            t.extend_from_slice(&buf[..n]);
            if t.len() > TAIL {
                let cut = t.len() - TAIL;
                t.drain(..cut);
            }
        }
        let (take, note) = reserve(&log, on_disk, n);
        if take > 0 {
            let _ = file.write_all(&buf[..take]).await;
        }
        if note {
            let _ = file
                .write_all(b"\n[whistle: stderr log reached its size cap; the rest is dropped]\n")
                .await;
        }
    }
    let _ = file.flush().await;
}

impl BotProcess {
    /// Starts the bot and supervises it: a crash is logged and the bot is
    /// started again (at most [`MAX_RESTARTS`] times) until [`BotProcess::stop`].
    ///
    /// # Errors
    /// If the program cannot be started at all.
    pub fn start(l: Launch, on_out: Option<OnOut>) -> std::io::Result<BotProcess> {
        BotProcess::start_counted(l, on_out, 0, None)
    }

    /// [`BotProcess::start`] for a bot whose process already ended `used`
    /// times in this event (an earlier run of a resumed one): it is started
    /// again at most [`MAX_RESTARTS`] times in all. `on_end` is called with
    /// the count each time its process ends.
    ///
    /// # Errors
    /// If the program cannot be started at all.
    pub fn start_counted(
        l: Launch,
        on_out: Option<OnOut>,
        used: u32,
        on_end: Option<OnEnd>,
    ) -> std::io::Result<BotProcess> {
        let first = spawn(&l)?;
        let mut on_out = on_out;
        let verdicts = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
        let v = verdicts.clone();
        let (stop, mut stopped) = watch::channel(false);
        let restarts = Arc::new(AtomicU32::new(used));
        let crashed = Arc::new(AtomicBool::new(false));
        let (r, c) = (restarts.clone(), crashed.clone());
        let name = l.name.clone();
        let task = tokio::spawn(async move {
            let mut child = Some(first);
            while let Some(mut started) = child.take() {
                let ch = &mut started.child;
                let tail = Arc::new(std::sync::Mutex::new(Vec::new()));
                let captured = ch
                    .stderr
                    .take()
                    .map(|err| tokio::spawn(capture(err, l.stderr_log.clone(), tail.clone())));
                tokio::select! {
                    biased;
                    _ = stopped.changed() => {
                        // Give the bot a moment to finish on its own (its
                        // assignments have ended), then make sure it is gone.
                        let waited = tokio::time::timeout(STOP_GRACE, ch.wait()).await;
                        if waited.is_err() {
                            kill_group(ch, l.sandbox.is_some()).await;
                        }
                        let gone = end_group(started.group, &l.name).await;
                        started.ended(gone);
                        break;
                    }
                    status = ch.wait() => {
                        // Whatever the bot left in its group goes with it,
                        // before it is started again or counted as done.
                        let gone = end_group(started.group, &l.name).await;
                        started.ended(gone);
                        if let Some(c) = captured {
                            let _ = c.await;
                        }
                        let tail = String::from_utf8_lossy(&tail.lock().expect("tail")).into_owned();
                        let (how, limit) = how_it_ended(&status, l.sandbox.as_ref(), &tail);
                        if limit {
                            warn!(bot = %l.name, verdict = %how, "bot stopped by a sandbox limit");
                            v.lock().expect("verdicts").push(how.clone());
                        }
                        if *stopped.borrow() {
                            break;
                        }
                        if l.once && status.as_ref().is_ok_and(|s| s.success()) {
                            // A seat's instance whose match is over.
                            break;
                        }
                        c.store(true, Ordering::Relaxed);
                        let n = r.fetch_add(1, Ordering::Relaxed) + 1;
                        if let Some(f) = &on_end {
                            f(&l.name, n);
                        }
                        warn!(target: "whistle::detail", bot = %l.name, status = %how, restart = n, "bot process ended during the tournament");
                        let mut next = None;
                        if n <= MAX_RESTARTS {
                            tokio::time::sleep(Duration::from_millis(200)).await;
                            match spawn(&l) {
                                Ok(p) => next = Some(p),
                                Err(e) => warn!(bot = %l.name, error = %e, "cannot restart the bot"),
                            }
                        }
                        match next {
                            Some(p) => child = Some(p),
                            None => {
                                // Fail fast: the bot is out, and its seats
                                // are forfeits rather than waits.
                                // The log's path as the output folder
                                // holds it (`logs/...`): right from
                                // wherever the results are read.
                                let reason = format!(
                                    "its process ended {n} times (last: {how}); see logs/{}",
                                    l.stderr_log
                                        .file_name()
                                        .map(|f| f.to_string_lossy().into_owned())
                                        .unwrap_or_default()
                                );
                                warn!(target: "whistle::detail", bot = %l.name, %reason, "bot out of the event");
                                if let Some(f) = on_out.take() {
                                    f(&l.name, &reason);
                                }
                            }
                        }
                    }
                }
            }
            crate::page_cache::after_instance(&l).await;
        });
        info!(bot = %name, "bot process started");
        Ok(BotProcess {
            name,
            stop,
            task: Some(task),
            restarts,
            crashed,
            verdicts,
        })
    }

    /// The limits that stopped it, in words ("memory limit 1024 MiB"), one
    /// per time.
    pub fn verdicts(&self) -> Vec<String> {
        self.verdicts.lock().expect("verdicts").clone()
    }

    /// The bot's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How often it was restarted after a crash.
    pub fn restarts(&self) -> u32 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// Whether it ever ended during the tournament.
    pub fn crashed(&self) -> bool {
        self.crashed.load(Ordering::Relaxed)
    }

    /// Tells the supervisor that the tournament is over: from now on the
    /// bot's exit is expected, not a crash.
    pub fn finishing(&self) {
        let _ = self.stop.send(true);
    }

    /// Stops the bot (after up to [`STOP_GRACE`] to exit by itself) and
    /// waits until it is gone (the module doc says what that means).
    pub async fn stop(mut self) {
        self.stop_and_wait().await;
    }

    /// [`BotProcess::stop`], keeping what it knows ([`BotProcess::verdicts`]):
    /// when it returns, no process of the bot is alive.
    pub async fn stop_and_wait(&mut self) {
        let _ = self.stop.send(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

/// Ends a bot's process: a sandbox's launcher is asked first (SIGTERM: it
/// ends every process of its sandbox and exits once none is left), then
/// the process group is killed (the leader still unreaped, so the group's
/// number cannot have been taken by another) and the leader reaped.
pub async fn kill_group(ch: &mut Child, sandboxed: bool) {
    if let Some(pid) = ch.id().and_then(|p| i32::try_from(p).ok()) {
        if sandboxed {
            // A sandbox's launcher ends every process of its sandbox on
            // SIGTERM and exits once none is left (whistle_sandbox's
            // contract); SIGKILL would leave it no time to (with Landlock
            // alone, a bot's processes in a session of their own are no
            // process group's).
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGTERM,
            );
            if tokio::time::timeout(Duration::from_secs(2), ch.wait())
                .await
                .is_ok()
            {
                return;
            }
        }
        // The bot runs in its own process group: end its children too.
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let _ = ch.kill().await;
}

/// Once the leader of process group `group` is reaped: kills what is left
/// of the group and waits until none of it is alive (see the module doc).
/// Whether none is (false: some outlived [`GONE_WITHIN`], or the group is
/// not known).
async fn end_group(group: Option<u32>, name: &str) -> bool {
    let Some(pgid) = group.and_then(|g| i32::try_from(g).ok()) else {
        return false;
    };
    let deadline = tokio::time::Instant::now() + GONE_WITHIN;
    let mut killed = false;
    while group_alive(pgid) {
        if tokio::time::Instant::now() >= deadline {
            warn!(bot = %name, group = pgid, "processes of the bot outlive SIGKILL; going on");
            return false;
        }
        if !killed {
            info!(bot = %name, group = pgid, "the bot left processes behind; they are killed");
            killed = true;
        }
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pgid),
            nix::sys::signal::Signal::SIGKILL,
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    true
}

/// Whether a process of group `pgid` in this session is alive (running or
/// stopped, not a zombie): whether the group can be signalled at all, then
/// which of its processes `/proc` shows alive (where `/proc` cannot be
/// listed, any that can be signalled).
fn group_alive(pgid: i32) -> bool {
    let group = nix::unistd::Pid::from_raw(pgid);
    // No process has the group (the common case): nothing to look for.
    if nix::sys::signal::killpg(group, None).is_err() {
        return false;
    }
    let session = nix::unistd::getsid(None).map(nix::unistd::Pid::as_raw).ok();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return true;
    };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            return false;
        };
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|stat| stat_fields(&stat))
            .is_some_and(|(state, pgrp, sid)| {
                pgrp == pgid && session.is_none_or(|s| s == sid) && !matches!(state, 'Z' | 'X')
            })
    })
}

/// A process's state, process group and session from its `/proc/PID/stat`
/// (the fields after the name, which is in parentheses and may hold any
/// character but is the last such group).
fn stat_fields(stat: &str) -> Option<(char, i32, i32)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let _ppid = f.next()?;
    let pgrp = f.next()?.parse().ok()?;
    let sid = f.next()?.parse().ok()?;
    Some((state, pgrp, sid))
}

/// The stderr log of bot `name` in `out`. Names from a tournament file are
/// checked already (`limits::check_name`); this keeps any other name inside
/// `out/logs` too, as one file name of safe characters.
pub fn stderr_log(out: &Path, name: &str) -> PathBuf {
    out.join("logs")
        .join(format!("{}.stderr.log", safe_file_stem(name)))
}

/// `name` as one file name that stays in its folder: every character other
/// than an ASCII letter, digit, `-` or `_` becomes `_` (so no `/`, `..` or
/// leading `.`), cut to 64 characters.
pub fn safe_file_stem(name: &str) -> String {
    let stem: String = name
        .chars()
        .take(64)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() { "_".into() } else { stem }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_logs_stay_in_the_logs_folder_whatever_the_name() {
        let out = Path::new("/data/out");
        for name in ["../../evil", "/etc/passwd", "..", "a\\b", "", "ok-name_1"] {
            let p = stderr_log(out, name);
            assert_eq!(p.parent(), Some(Path::new("/data/out/logs")), "{name:?}");
            let file = p.file_name().unwrap().to_str().unwrap();
            assert!(!file.starts_with('.') && !file.contains('/'), "{file}");
        }
        assert_eq!(
            stderr_log(out, "ok-name_1"),
            Path::new("/data/out/logs/ok-name_1.stderr.log")
        );
    }

    /// An ended sandbox's network namespace is kept to be handed on only
    /// when every process of it is gone and it is the one the sandbox ran
    /// in; one handed and not entered, or of a sandbox not known to be
    /// gone, is let go of.
    #[test]
    fn only_a_gone_sandboxs_own_network_namespace_is_handed_on() {
        let ns = || std::fs::File::open("/proc/self/ns/net").unwrap();
        let free = || FREE_NETNS.lock().unwrap().len();
        let other = std::fs::File::open("/proc/self/ns/mnt").unwrap();
        let before = free();
        // Not gone: nothing kept.
        Networks::ended(Some(ns()), Some(ns()), false);
        assert_eq!(free(), before);
        // Handed and entered: the one kept.
        Networks::ended(Some(ns()), Some(ns()), true);
        assert_eq!(free(), before + 1);
        // Handed, not entered (another one seen): the one it ran in kept.
        Networks::ended(Some(other), Some(ns()), true);
        assert_eq!(free(), before + 2);
        // Handed, never seen: let go of.
        Networks::ended(None, Some(ns()), true);
        assert_eq!(free(), before + 2);
        // Made by the sandbox itself: kept.
        Networks::ended(Some(ns()), None, true);
        assert_eq!(free(), before + 3);
        FREE_NETNS.lock().unwrap().truncate(before);
    }

    #[test]
    fn a_process_state_group_and_session_are_read_after_its_name() {
        let stat = "4242 (a (b) c) S 1 4240 4239 0 -1 4194560 99 0 0 0";
        assert_eq!(stat_fields(stat), Some(('S', 4240, 4239)));
        assert_eq!(stat_fields("7 (z) Z 1 7 7 0"), Some(('Z', 7, 7)));
        assert_eq!(stat_fields("garbage"), None);
    }

    #[tokio::test]
    async fn a_group_is_gone_only_when_its_left_processes_are() {
        // A leader that leaves a child behind in its group and exits.
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & exit 0"]).process_group(0);
        let mut ch = cmd.spawn().unwrap();
        let group = ch.id();
        assert!(ch.wait().await.unwrap().success());
        let pgid = i32::try_from(group.unwrap()).unwrap();
        assert!(group_alive(pgid), "the sleep is still there");
        end_group(group, "test").await;
        assert!(!group_alive(pgid));
    }

    /// The bundled bot binary is taken only beside the program, and only
    /// when it answers this build; the running test binary has none beside
    /// it, so `whistle bot` is started as it is.
    #[test]
    fn the_bundled_bot_is_taken_only_of_this_build() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let me = dir.path().join("whistle");
        let small = dir.path().join(whistle_bot::client::BUNDLED_BIN);
        assert_eq!(bundled_bot_beside(&me), None, "missing");
        let answering = |build: &str| {
            // Written apart and renamed: a file still open for writing
            // cannot be run.
            let tmp = dir.path().join("next");
            std::fs::write(&tmp, format!("#!/bin/sh\necho '{build}'\n")).unwrap();
            std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
            std::fs::rename(&tmp, &small).unwrap();
        };
        answering("0.0.0-another");
        assert_eq!(bundled_bot_beside(&me), None, "another build");
        answering(whistle_bot::client::BUILD);
        // (A process another test forks in the moment the file is open for
        // writing holds it until it runs its own program: asked again.)
        let found = (0..20).find_map(|_| {
            bundled_bot_beside(&me).or_else(|| {
                std::thread::sleep(Duration::from_millis(10));
                None
            })
        });
        assert_eq!(found, Some(small.clone()), "this build");
        let words = |w: &[&str]| w.iter().map(ToString::to_string).collect::<Vec<_>>();
        let here = Path::new("/data/tournaments");
        assert_eq!(
            started(&words(&["whistle", "bot", "--bot", "first"]), here),
            (
                std::env::current_exe().unwrap(),
                words(&["bot", "--bot", "first"])
            ),
        );
    }

    #[test]
    fn programs_resolve_against_the_tournament_folder() {
        let dir = Path::new("/data/tournaments");
        assert_eq!(
            program("whistle", dir),
            std::env::current_exe().unwrap(),
            "the running binary"
        );
        assert_eq!(
            program("bots/my-bot", dir),
            Path::new("/data/tournaments/bots/my-bot")
        );
        assert_eq!(
            program("./run.sh", dir),
            Path::new("/data/tournaments/./run.sh")
        );
        assert_eq!(
            program("../bots/x.py", dir),
            Path::new("/data/tournaments/../bots/x.py")
        );
        assert_eq!(program("python3", dir), Path::new("python3"), "from PATH");
        assert_eq!(program("/usr/bin/env", dir), Path::new("/usr/bin/env"));
    }
}
