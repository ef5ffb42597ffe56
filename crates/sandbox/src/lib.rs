//! Confines the bot programs whistle starts.
//!
//! A bot is untrusted code run on the organiser's machine. A sandboxed bot
//! runs, where the sandbox's namespaces can be made ([`Mode::Namespaces`]):
//!
//! - in its own mount, PID, network, IPC and UTS namespaces (and, for an
//!   ordinary user, user namespaces): it sees no other process (a `/proc` of
//!   its own), can signal or trace none, the sandbox's init included (PID 1,
//!   undumpable), and has no network at all: it reaches the referee through
//!   a Unix socket (`WHISTLE_ADDRESS=unix:PATH`);
//! - in a private root: read-only binds of the system's runtimes, its folder,
//!   its `read` paths and the launcher; its scratch `tmpfs`, a minimal `/dev`
//!   with its own `/dev/shm`, the referee's socket; nothing else of the host
//!   (no `/tmp`, `/run`, `/home`, no host socket);
//! - never as root: run by root, as an unprivileged uid of its own; run by
//!   an ordinary user, as that user with no capability;
//! - under a Landlock ruleset applied by its own process (a second wall);
//! - under a system-call filter (seccomp, built with `seccompiler`; the list
//!   and the reasons in `filter.rs` and docs/fair-play.md, in short
//!   [`REFUSED_CALLS`]), installed last by the bot's own process: nothing
//!   through which it could pass information to another bot (file locks,
//!   inotify, SysV IPC, message queues, keyrings), hold memory no limit
//!   counts (memfd), reach another process (ptrace) or leave its sandbox
//!   (mounts, namespaces, io_uring), and no socket but the kind it reaches
//!   the referee by: Unix stream sockets in namespaces, TCP under Landlock
//!   alone, none for a stdio bot ([`Spec::stdio`]);
//! - under limits ([`Limits`]): memory (shared memory and `tmpfs` counted),
//!   processes and threads, a CPU share, CPU time, file size, open files and
//!   scratch size: a cgroup's where the machine gives one, else the
//!   watchdog's, and each process's `setrlimit`s.
//!
//! Where the namespaces cannot be made (Ubuntu 24.04 allows user namespaces
//! only to programs its AppArmor profiles name), Landlock alone can confine
//! the bot ([`Mode::Landlock`], Landlock ABI 6 or later), but only when asked
//! ([`MODE_VAR`]): it gives no private root (the host's files the bot may
//! read are the host's, and their names and sizes show) and no `/proc`
//! (the filter still refuses it every Unix socket); [`Support::describe`]
//! says so.
//! Where neither can be had, [`probe`] says why and whistle refuses to start
//! bots unless the organiser opts out.
//!
//! The work happens in fresh, single-threaded processes (a user namespace
//! can only be entered by one; the crate has no `unsafe`, so no `pre_exec`):
//! the running program calls [`launcher_main`] first thing in `main`, and a
//! sandboxed bot is started as `<launcher> __sandbox run` with its [`Spec`]
//! in the environment ([`Spec::command`]). The launcher makes the sandbox's
//! cgroup and stays outside the sandbox; in namespaces its init (PID 1)
//! builds the private root, starts the bot's process, reaps orphans and
//! watches; with Landlock alone the launcher itself is a child subreaper and
//! watches. The bot's own process becomes the bot's user, sets its
//! rlimits and confines itself (Landlock, then any system-call filter) last,
//! so that the launcher and init stay outside its Landlock domain.
//!
//! Each of those steps is a fresh start of the launcher program, three per
//! sandbox (two where init runs as root and a cgroup keeps every limit:
//! then a thread of init confines itself and starts the bot, and init only
//! waits; one where, also, the caller starts the launcher as PID 1 of a
//! PID namespace of its own, [`in_own_pid_namespace`]: then the launcher
//! is the sandbox's init too): `whistle` itself can be it, but a small program that does
//! nothing else ([`LAUNCHER_BIN`], built and installed beside `whistle`)
//! loads in a fraction of the time; [`launcher_for`] picks it when it is of
//! the same build ([`BUILD`]) and confines as well here.
//!
//! **The launcher's contract**: it exits only once every process of its
//! sandbox is gone (the PID namespace ended with its init, the cgroup empty,
//! no descendant left), so its exit means that nothing of the bot remains;
//! on SIGTERM, SIGINT or SIGHUP, or when its parent is gone, it kills them
//! all and exits. Its exit status is the bot's, or a reserved one for a
//! limit ([`Verdict::of_exit`]). (Killed with SIGKILL it cannot keep this
//! contract with Landlock alone; in namespaces the init follows it.)
//!
//! whistle's runner relies on this contract before it lets another instance
//! of the bot see the same deals (`whistle-tournament`'s `procs`, "When a
//! bot is gone"): it starts each launcher as the leader of a process group
//! of its own, and after the launcher is reaped it also kills what is left
//! of that group and waits until none of it is alive.

use std::{
    fmt,
    path::{Path, PathBuf},
    process::Command,
    sync::{Mutex, OnceLock, PoisonError},
};

use serde::{Deserialize, Serialize};

#[cfg(target_os = "linux")]
mod filter;
#[cfg(target_os = "linux")]
mod linux;

/// The argument that makes the running program a sandbox launcher.
pub const LAUNCHER_ARG: &str = "__sandbox";
/// The environment variable that carries a [`Spec`] to the launcher.
const SPEC_VAR: &str = "WHISTLE_SANDBOX_SPEC";
/// Set to `landlock` to use Landlock alone even where user namespaces work
/// (the confinement of Ubuntu 24.04 and similar systems; tests use it).
pub const MODE_VAR: &str = "WHISTLE_SANDBOX";

/// Set to `none` to make no cgroup for a sandbox even where one can be had
/// (its limits are then kept by the watchdog alone; tests use it).
pub const CGROUP_VAR: &str = "WHISTLE_SANDBOX_CGROUP";

/// The environment variable that hands a launcher run as root the network
/// namespace of a sandbox that has ended, to enter rather than make one
/// ([`held_network`] gives its value). It is entered only when it holds no
/// socket (else a fresh one is made, as without it); the caller must hand
/// it only once every process of its last sandbox is gone, and to one
/// launcher at a time. Making and tearing down a network namespace is the
/// largest part of a sandbox's start (docs/fair-play.md, "One network
/// namespace after another").
pub const NETNS_VAR: &str = "WHISTLE_SANDBOX_NETNS";

/// The value of [`NETNS_VAR`] for the network namespace `ns` (an open
/// `/proc/PID/ns/net` of an ended sandbox) that this process holds: the
/// launcher opens it through this process's descriptor, so it must stay
/// open until the launcher has entered it.
#[cfg(unix)]
pub fn held_network(ns: &std::fs::File) -> String {
    use std::os::fd::AsRawFd;
    format!("/proc/{}/fd/{}", std::process::id(), ns.as_raw_fd())
}

/// Exit status of a launcher whose bot was stopped for its memory.
pub const EXIT_MEMORY: i32 = 251;
/// Exit status of a launcher whose bot ran out of CPU time.
pub const EXIT_CPU: i32 = 252;
/// Exit status of a launcher whose bot wrote a file above the size limit.
pub const EXIT_FILE_SIZE: i32 = 253;
/// Exit status of a launcher that could not make the sandbox.
pub const EXIT_SETUP: i32 = 254;
/// Exit status of a launcher whose bot started more processes than allowed.
pub const EXIT_PROCESSES: i32 = 250;
/// Exit status of a launcher whose bot used more than its CPU share.
pub const EXIT_CPU_SHARE: i32 = 249;
/// Exit status of a launcher whose bot filled its scratch folder past its
/// size (Landlock alone, where the folder is not a `tmpfs`).
pub const EXIT_SCRATCH: i32 = 248;
/// A bot's own exit status at or above this is reported as this, so that a
/// bot cannot pass for a limit.
pub const EXIT_BOT_MAX: i32 = 247;

/// A share of the machine's processors, in thousandths of one (`cpus = 1.5`
/// in a file is one and a half processors).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cpus(u32);

impl Cpus {
    /// `n` processors (rounded to a thousandth; negative is none).
    pub fn new(n: f64) -> Cpus {
        Cpus((n * 1000.0).round().clamp(0.0, u32::MAX as f64) as u32)
    }

    /// The share in processors.
    pub fn get(self) -> f64 {
        f64::from(self.0) / 1000.0
    }

    /// The share in thousandths of a processor.
    pub fn millis(self) -> u64 {
        u64::from(self.0)
    }
}

impl fmt::Display for Cpus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.get())
    }
}

impl Serialize for Cpus {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.get())
    }
}

impl<'de> Deserialize<'de> for Cpus {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cpus, D::Error> {
        let n = f64::deserialize(d)?;
        if !n.is_finite() {
            return Err(serde::de::Error::custom("`cpus` must be a number"));
        }
        Ok(Cpus::new(n))
    }
}

/// Resource limits of one sandbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Memory, MiB: the data segment (`RLIMIT_DATA`: allocations above it
    /// fail) and the resident memory of the whole sandbox (the watchdog stops
    /// it above this).
    pub memory_mib: u64,
    /// Processes and threads (`RLIMIT_NPROC`, counted in the sandbox's own
    /// user namespace; the kernel does not apply it to root, so the sandbox's
    /// init also counts the processes of its PID namespace and stops a
    /// sandbox that holds more).
    pub processes: u64,
    /// CPU time of each process, seconds (`RLIMIT_CPU`).
    pub cpu_s: u64,
    /// Largest file a bot may write, MiB (`RLIMIT_FSIZE`).
    pub file_mib: u64,
    /// Open files per process (`RLIMIT_NOFILE`).
    pub open_files: u64,
    /// Size of the scratch folder, MiB (and of the sandbox's own
    /// `/dev/shm`).
    pub scratch_mib: u64,
    /// The share of the processors all the sandbox's processes and threads
    /// may use together (a cgroup's CPU quota: more threads only slow the
    /// bot itself; where no cgroup can be had the watchdog stops a sandbox
    /// that uses more).
    pub cpus: Cpus,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mib: 1024,
            processes: 64,
            cpu_s: 3600,
            file_mib: 64,
            open_files: 256,
            scratch_mib: 64,
            cpus: Cpus::new(1.0),
        }
    }
}

impl Limits {
    /// The names of all the limits as files write them.
    pub const NAMES: [&'static str; 7] = [
        "memory_mib",
        "processes",
        "cpu_s",
        "file_mib",
        "open_files",
        "scratch_mib",
        "cpus",
    ];

    /// The names of the whole-number limits as files write them, with their
    /// values (all but [`Limits::cpus`]).
    pub fn fields(&self) -> [(&'static str, u64); 6] {
        [
            ("memory_mib", self.memory_mib),
            ("processes", self.processes),
            ("cpu_s", self.cpu_s),
            ("file_mib", self.file_mib),
            ("open_files", self.open_files),
            ("scratch_mib", self.scratch_mib),
        ]
    }

    /// Checks that every limit is usable (not zero, not absurd).
    ///
    /// # Errors
    /// The first limit out of range, with why.
    pub fn check(&self) -> Result<(), String> {
        let ranges: [(&str, u64, u64, u64); 6] = [
            ("memory_mib", self.memory_mib, 16, 1 << 20),
            ("processes", self.processes, 1, 1 << 16),
            ("cpu_s", self.cpu_s, 1, 1 << 30),
            ("file_mib", self.file_mib, 1, 1 << 20),
            ("open_files", self.open_files, 16, 1 << 20),
            ("scratch_mib", self.scratch_mib, 1, 1 << 20),
        ];
        for (name, value, lo, hi) in ranges {
            if !(lo..=hi).contains(&value) {
                return Err(format!("`{name}` is {value}: it must be from {lo} to {hi}"));
            }
        }
        if !(100..=1_024_000).contains(&self.cpus.millis()) {
            return Err(format!(
                "`cpus` is {}: it must be from 0.1 to 1024",
                self.cpus
            ));
        }
        Ok(())
    }
}

/// How a sandbox confines its bot (see the crate's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// User, PID, mount, network, IPC and UTS namespaces, and Landlock.
    Namespaces,
    /// Landlock alone (user namespaces unavailable).
    Landlock,
}

impl Mode {
    /// The mode's name as whistle prints it.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Namespaces => "namespaces",
            Mode::Landlock => "landlock",
        }
    }

    /// How a gRPC bot in this mode reaches the referee, and what else of
    /// the network it has (the Landlock rules and the system-call filter's
    /// socket rule together).
    pub fn reaches_referee(self) -> &'static str {
        match self {
            Mode::Namespaces => {
                "a Unix socket (no network; it may open Unix stream sockets only, and its private \
                 root holds no socket but the referee's)"
            }
            Mode::Landlock => {
                "TCP to the referee's port only (no other TCP connection, no UDP, no other \
                 socket, no listening)"
            }
        }
    }

    /// What a sandbox of this mode gives a bot, in one phrase that follows
    /// "the referee is reached by": how it reaches the referee (`stdio`: a
    /// stdio bot, for which whistle speaks) and the system calls refused
    /// ([`REFUSED_CALLS`]).
    pub fn describe(self, stdio: bool) -> String {
        let reach = if stdio {
            "whistle, over its stdin and stdout (it may open no socket at all)"
        } else {
            self.reaches_referee()
        };
        format!("{reach}; refused: {REFUSED_CALLS}")
    }
}

/// The system calls refused to every sandboxed bot, in short (the list and
/// the reasons: docs/fair-play.md; the filter: `filter.rs`).
pub const REFUSED_CALLS: &str = "file locks (taking one locks nothing), inotify, SysV IPC and \
    message queues, memfd, keyrings, ptrace, other processes' limits and priorities, perf, \
    bpf, io_uring, mounts and namespaces, the machine's counts (sysinfo), locking memory, \
    evicting or probing the page cache (fadvise does nothing; mincore, cachestat), typing into \
    a terminal, modules and kexec";

/// What this machine offers, as the launcher found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Support {
    /// The kernel's Landlock ABI (0: none).
    pub landlock_abi: u32,
    /// Whether the sandbox's namespaces (user namespaces for an ordinary
    /// user; mount, PID, network, IPC and UTS ones, and the private root with
    /// its own `/proc`) can be made.
    pub namespaces: bool,
    /// Why namespaces do not work, if they do not.
    pub namespaces_error: Option<String>,
    /// Whether whistle runs as root.
    pub root: bool,
    /// What a sandbox's cgroup bounds here (`cgroup v1 (memory, pids,
    /// cpu)`), if one can be made.
    #[serde(default)]
    pub cgroup: Option<String>,
    /// Why no cgroup can be made, if none can.
    #[serde(default)]
    pub cgroup_error: Option<String>,
}

/// How to let whistle use user namespaces where they are restricted.
pub const ENABLE_NAMESPACES: &str = "allow user namespaces for whistle: on Ubuntu 24.04 and \
     later, an AppArmor profile with `userns,` for the whistle binary (docs/fair-play.md gives \
     the file), elsewhere `sysctl kernel.unprivileged_userns_clone=1` or \
     `user.max_user_namespaces`";

impl Support {
    /// The mode to use here: namespaces where they can be made (unless
    /// [`MODE_VAR`] is `landlock`); Landlock alone only when [`MODE_VAR`] is
    /// `landlock` (it cannot give every guarantee: see [`Support::describe`]).
    ///
    /// # Errors
    /// Why no sandbox can be made on this machine, or why Landlock alone is
    /// not used unasked.
    pub fn mode(&self) -> Result<Mode, String> {
        let forced = std::env::var(MODE_VAR).ok();
        let landlock_asked = forced.as_deref() == Some("landlock");
        if self.namespaces && !landlock_asked {
            return Ok(Mode::Namespaces);
        }
        let why = self.namespaces_error.as_deref().unwrap_or("disabled");
        if self.landlock_abi < 6 {
            return Err(format!(
                "the sandbox's namespaces cannot be made ({why}) and this kernel's Landlock (ABI \
                 {}) cannot confine signals and TCP without them (ABI 6, Linux 6.12, is \
                 needed); {ENABLE_NAMESPACES}",
                self.landlock_abi
            ));
        }
        if self.root {
            return Err(format!(
                "the sandbox's namespaces cannot be made ({why}), and Landlock alone would run \
                 the bot as root; {ENABLE_NAMESPACES}, or run whistle as an ordinary user with \
                 {MODE_VAR}=landlock"
            ));
        }
        if landlock_asked {
            return Ok(Mode::Landlock);
        }
        Err(format!(
            "the sandbox's namespaces cannot be made ({why}); Landlock alone cannot give a bot a \
             private root (it could reach a host Unix socket, such as Docker's or D-Bus's, by its \
             path): {ENABLE_NAMESPACES}, or set {MODE_VAR}=landlock to accept Landlock alone"
        ))
    }

    /// What a sandbox of `mode` guarantees here and what it does not, in one
    /// line (check-bot's first line, the terminal, the run's report).
    pub fn describe(&self, mode: Mode) -> String {
        let limits = match &self.cgroup {
            Some(c) => format!(
                "memory (shared memory and tmpfs counted), processes and CPU share bounded by a \
                 {c}"
            ),
            None => format!(
                "memory (resident, shared and tmpfs), processes and CPU share kept by the \
                 watchdog (no cgroup: {})",
                self.cgroup_error.as_deref().unwrap_or("none")
            ),
        };
        match mode {
            Mode::Namespaces => format!(
                "namespaces: a private read-only root (no host /tmp, /home, /run or socket), its \
                 own /proc, no network, the bot {}; {limits}; \
                 nothing outlives it",
                if self.root {
                    "run as an unprivileged uid of its own"
                } else {
                    "run as your uid with no capability"
                }
            ),
            Mode::Landlock => format!(
                "Landlock alone: the host's files read-only where granted, writes only to its \
                 scratch folder (its size kept by the watchdog), TCP only to the referee, signals \
                 only within, no Unix socket (the filter); NOT guaranteed: a private root (it \
                 sees the host's file names, sizes and times where it may read) and its own \
                 /proc; {limits}; nothing outlives it"
            ),
        }
    }
}

/// Asks `launcher` (a program that calls [`launcher_main`]) what this machine
/// offers. The answer is kept for the life of the process.
///
/// # Errors
/// Why no sandbox can be made here (not Linux, no Landlock, neither
/// namespaces nor a recent enough Landlock).
pub fn probe(launcher: &Path) -> Result<(Mode, Support), String> {
    let support = probed(launcher)?;
    Ok((support.mode()?, support))
}

/// What `launcher` answered to the probe, asked once per launcher for the
/// life of the process.
fn probed(launcher: &Path) -> Result<Support, String> {
    /// Each launcher asked, and its answer.
    type Answers = Vec<(PathBuf, Result<Support, String>)>;
    static SUPPORT: OnceLock<Mutex<Answers>> = OnceLock::new();
    let cache = SUPPORT.get_or_init(|| Mutex::new(Vec::new()));
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, known)) = cache.iter().find(|(l, _)| l == launcher) {
        return known.clone();
    }
    let answer = probe_uncached(launcher);
    cache.push((launcher.to_path_buf(), answer.clone()));
    answer
}

/// The file name of the small launcher built and installed beside `whistle`
/// (`whistle-cli`'s second binary): it runs a sandbox's steps without
/// loading the whole of `whistle` three times an instance.
pub const LAUNCHER_BIN: &str = "whistle-sandbox-launcher";

/// The build of this crate's launcher steps: a digest of its sources
/// (`build.rs`). A launcher answers it to `__sandbox build`; one of another
/// build may read a [`Spec`] or a step's arguments otherwise.
pub const BUILD: &str = env!("WHISTLE_SANDBOX_BUILD");

/// The launcher to start `program`'s sandboxes with, where `program` calls
/// [`launcher_main`] (the running `whistle`): the small launcher
/// ([`LAUNCHER_BIN`]) in the same folder when there is one of this very
/// build ([`BUILD`]) that confines at least as well here as `program` would
/// (namespaces where `program` has them: an AppArmor profile may allow user
/// namespaces to `whistle` alone); else `program` itself.
pub fn launcher_for(program: &Path) -> PathBuf {
    let Some(small) = program.parent().map(|d| d.join(LAUNCHER_BIN)) else {
        return program.to_path_buf();
    };
    if !small.is_file() || build_of(&small).as_deref() != Some(BUILD) {
        return program.to_path_buf();
    }
    let modes = |l: &Path| probed(l).map(|s| (s.namespaces, s.landlock_abi, s.cgroup.is_some()));
    match modes(&small) {
        Ok((true, _, true)) => small,
        Ok(theirs) if modes(program).is_ok_and(|ours| ours == theirs) => small,
        _ => program.to_path_buf(),
    }
}

/// The build a launcher answers (`None`: it answers none).
fn build_of(launcher: &Path) -> Option<String> {
    let out = Command::new(launcher)
        .args([LAUNCHER_ARG, "build"])
        .env_clear()
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn probe_uncached(launcher: &Path) -> Result<Support, String> {
    if !cfg!(target_os = "linux") {
        return Err(format!(
            "bots can be sandboxed only on Linux (this is {})",
            std::env::consts::OS
        ));
    }
    let out = Command::new(launcher)
        .args([LAUNCHER_ARG, "probe"])
        .env_clear()
        .output()
        .map_err(|e| {
            format!(
                "cannot run {} to probe the sandbox: {e}",
                launcher.display()
            )
        })?;
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.trim()).map_err(|e| {
        format!(
            "the sandbox probe of {} answered {:?} ({e}); stderr: {}",
            launcher.display(),
            text.trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })
}

/// Everything the launcher needs to start one sandboxed bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    /// How to confine it.
    pub mode: Mode,
    /// The program (a path, or a name looked up in the bot's `PATH`).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (its folder; readable).
    pub dir: PathBuf,
    /// Its whole environment (nothing else is passed on).
    pub env: Vec<(String, String)>,
    /// Folders and files it may read (and run), beyond [`system_paths`].
    pub read: Vec<PathBuf>,
    /// Its scratch folder: empty, the only place it may write.
    pub scratch: PathBuf,
    /// Its limits.
    pub limits: Limits,
    /// [`Mode::Landlock`]: the one TCP port it may connect to.
    pub referee_port: Option<u16>,
    /// A stdio bot (whistle speaks to the referee for it over its standard
    /// streams): it may open no socket at all, only connected pairs
    /// (`socketpair`). A gRPC bot may open the sockets its mode reaches the
    /// referee by: Unix stream sockets in [`Mode::Namespaces`], TCP under
    /// [`Mode::Landlock`].
    #[serde(default)]
    pub stdio: bool,
}

impl Spec {
    /// The command that starts this bot in its sandbox through `launcher`.
    /// Nothing of the caller's environment reaches the bot.
    pub fn command(&self, launcher: &Path) -> Command {
        let mut cmd = Command::new(launcher);
        cmd.args([LAUNCHER_ARG, "run"]).env_clear().env(
            SPEC_VAR,
            serde_json::to_string(self).expect("a spec serializes"),
        );
        cmd
    }
}

/// The system's libraries, tools and runtimes, readable by every sandboxed
/// bot (those that exist).
pub fn system_paths() -> Vec<PathBuf> {
    [
        "/usr",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/bin",
        "/sbin",
        "/etc",
        "/opt",
        "/nix/store",
        "/sys/devices/system/cpu",
        "/dev/urandom",
        "/dev/random",
    ]
    .into_iter()
    .map(PathBuf::from)
    .filter(|p| p.exists())
    .collect()
}

/// Whether `program`, an absolute path, lies in [`system_paths`] (read
/// as written: a path with `..` never does).
pub fn in_system_paths(program: &Path) -> bool {
    program.is_absolute()
        && !program
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
        && system_paths().iter().any(|s| program.starts_with(s))
}

/// A folder [`runtime_guesses`] thinks a program needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guess {
    /// The folder.
    pub path: PathBuf,
    /// The virtual environment whose `pyvenv.cfg` named it (the base
    /// interpreter's prefix), or `None` for the prefix of the program
    /// itself.
    pub named_by: Option<PathBuf>,
}

/// The folders a program needs to run beyond [`system_paths`], found from
/// the program itself: for a program in `PREFIX/bin` (a language runtime
/// installed under a home folder, `pyenv`'s shims, a virtual environment),
/// `PREFIX` of the program and of its resolved link; for a Python virtual
/// environment, the base interpreter's prefix its `pyvenv.cfg` names.
/// The caller decides whether a path found here may be granted.
pub fn runtime_paths(program: &Path) -> Vec<PathBuf> {
    runtime_guesses(program)
        .into_iter()
        .map(|g| g.path)
        .collect()
}

/// [`runtime_paths`], each with where it was read: a `pyvenv.cfg` is a
/// file like any other, and one the bot wrote names what it likes.
pub fn runtime_guesses(program: &Path) -> Vec<Guess> {
    let mut out: Vec<Guess> = Vec::new();
    let mut candidates = vec![program.to_path_buf()];
    if let Ok(real) = std::fs::canonicalize(program) {
        candidates.push(real);
    }
    for p in candidates {
        let Some(bin) = p.parent() else { continue };
        let Some(prefix) = bin.parent() else { continue };
        let named_bin = bin
            .file_name()
            .is_some_and(|n| n == "bin" || n == "shims" || n == "Scripts");
        if named_bin && !out.iter().any(|g| g.path == prefix) {
            out.push(Guess {
                path: prefix.to_path_buf(),
                named_by: None,
            });
            out.extend(venv_base(prefix).map(|path| Guess {
                path,
                named_by: Some(prefix.to_path_buf()),
            }));
        }
    }
    out
}

/// The `home` a Python virtual environment at `prefix` names in its
/// `pyvenv.cfg` (the folder of its base interpreter), if `prefix` is one.
pub fn venv_home(prefix: &Path) -> Option<PathBuf> {
    let cfg = std::fs::read_to_string(prefix.join("pyvenv.cfg")).ok()?;
    cfg.lines()
        .filter_map(|line| line.split_once('='))
        .find(|(k, _)| k.trim() == "home")
        .map(|(_, v)| PathBuf::from(v.trim()))
}

/// The folder of the interpreter a Python virtual environment at `prefix`
/// links to (the parent of its `pyvenv.cfg`'s `home`), if `prefix` is one.
pub fn venv_base(prefix: &Path) -> Option<PathBuf> {
    venv_home(prefix).and_then(|h| h.parent().map(Path::to_path_buf))
}

/// Whether the base interpreter a virtual environment at `prefix` names
/// looks like a real Python installation: an executable `python`,
/// `python3` or `python3.N` in its `home`, and `lib/python3.*` in the
/// folder above. What an untrusted `pyvenv.cfg` must name to be believed.
pub fn names_a_python(prefix: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(home) = venv_home(prefix) else {
        return false;
    };
    let Some(base) = home.parent() else {
        return false;
    };
    let pythonish = |name: &str| {
        name == "python"
            || name == "python3"
            || name
                .strip_prefix("python3.")
                .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
    };
    let executable = std::fs::read_dir(&home).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_name().to_str().is_some_and(pythonish)
                && std::fs::metadata(e.path())
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    });
    let lib = std::fs::read_dir(base.join("lib")).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with("python3"))
                && e.path().is_dir()
        })
    });
    executable && lib
}

/// Finds a bare program name in `path_var` (a `PATH` value).
pub fn which(name: &str, path_var: &str) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// How a sandboxed bot's process ended, read from its launcher's exit.
///
/// Each limit's verdict has one exit status of the launcher
/// ([`Verdict::code`]) and one wording (its `Display`), which the launcher
/// also writes to the bot's stderr when it stops a bot ([`Verdict::say`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It exited by itself with this status (0: cleanly).
    Exited(i32),
    /// A signal ended it.
    Signal(i32),
    /// It held more memory than allowed (the cgroup's memory limit, or the
    /// watchdog: resident memory, shared memory and `tmpfs` together).
    Memory(u64),
    /// It ran out of CPU time.
    Cpu(u64),
    /// It wrote a file above the size limit.
    FileSize(u64),
    /// It held more processes than allowed.
    Processes(u64),
    /// It used more than its share of the processors (where no cgroup can
    /// slow it, the watchdog stops it).
    CpuShare(Cpus),
    /// It wrote more than its scratch folder holds (Landlock alone: the
    /// watchdog sums the folder).
    Scratch(u64),
    /// The sandbox could not be made (the launcher's stderr says why).
    Setup,
}

impl Verdict {
    /// The verdict of a launcher's exit status (`code`, or `signal` when a
    /// signal ended the launcher itself).
    pub fn of_exit(code: Option<i32>, signal: Option<i32>, limits: &Limits) -> Verdict {
        match (code, signal) {
            (Some(EXIT_MEMORY), _) => Verdict::Memory(limits.memory_mib),
            (Some(EXIT_CPU), _) => Verdict::Cpu(limits.cpu_s),
            (Some(EXIT_FILE_SIZE), _) => Verdict::FileSize(limits.file_mib),
            (Some(EXIT_SETUP), _) => Verdict::Setup,
            (Some(EXIT_PROCESSES), _) => Verdict::Processes(limits.processes),
            (Some(EXIT_CPU_SHARE), _) => Verdict::CpuShare(limits.cpus),
            (Some(EXIT_SCRATCH), _) => Verdict::Scratch(limits.scratch_mib),
            (Some(c), _) if c > 128 && c < 128 + 65 => Verdict::Signal(c - 128),
            (Some(c), _) => Verdict::Exited(c),
            (None, Some(s)) => Verdict::Signal(s),
            (None, None) => Verdict::Exited(-1),
        }
    }

    /// The launcher's exit status for this verdict (the inverse of
    /// [`Verdict::of_exit`]; a bot's own status is capped below the
    /// reserved ones).
    pub fn code(&self) -> i32 {
        match self {
            Verdict::Exited(c) => (*c).clamp(0, EXIT_BOT_MAX),
            Verdict::Signal(s) => 128 + s,
            Verdict::Memory(_) => EXIT_MEMORY,
            Verdict::Cpu(_) => EXIT_CPU,
            Verdict::FileSize(_) => EXIT_FILE_SIZE,
            Verdict::Processes(_) => EXIT_PROCESSES,
            Verdict::CpuShare(_) => EXIT_CPU_SHARE,
            Verdict::Scratch(_) => EXIT_SCRATCH,
            Verdict::Setup => EXIT_SETUP,
        }
    }

    /// The line the launcher writes to the bot's stderr when a limit stops
    /// it: the verdict's wording, then what was seen (`detail`).
    pub fn say(&self, detail: &str) -> String {
        if detail.is_empty() {
            format!("whistle sandbox: {self}: the bot was stopped")
        } else {
            format!("whistle sandbox: {self}: {detail}")
        }
    }

    /// Whether a limit stopped the bot.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            Verdict::Memory(_)
                | Verdict::Cpu(_)
                | Verdict::FileSize(_)
                | Verdict::Processes(_)
                | Verdict::CpuShare(_)
                | Verdict::Scratch(_)
        )
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Exited(0) => f.write_str("exited cleanly"),
            Verdict::Exited(c) => write!(f, "exited with status {c}"),
            Verdict::Signal(s) => write!(f, "ended by signal {s}"),
            Verdict::Memory(m) => write!(f, "memory limit {m} MiB"),
            Verdict::Cpu(s) => write!(f, "CPU time limit {s} s"),
            Verdict::FileSize(m) => write!(f, "file size limit {m} MiB"),
            Verdict::Processes(n) => write!(f, "process limit {n}"),
            Verdict::CpuShare(c) => write!(f, "CPU share limit {c} processors"),
            Verdict::Scratch(m) => write!(f, "scratch limit {m} MiB"),
            Verdict::Setup => f.write_str("the sandbox could not be made"),
        }
    }
}

/// Whether `text` (the end of a bot's stderr) says an allocation failed:
/// under `RLIMIT_DATA` a large allocation is refused, and each runtime says
/// so in its own words.
pub fn says_out_of_memory(text: &str) -> bool {
    const SIGNS: [&str; 8] = [
        "memory allocation of",
        "MemoryError",
        "Cannot allocate memory",
        "out of memory",
        "OutOfMemoryError",
        "heap out of memory",
        "std::bad_alloc",
        "failed to allocate",
    ];
    SIGNS.iter().any(|s| text.contains(s))
}

/// Runs `start`, which must start exactly one process, the launcher of a
/// sandbox in [`Mode::Namespaces`] ([`Spec::command`]), so that the
/// launcher is PID 1 of a PID namespace of its own, where the caller is
/// root and may make one (else `start` runs as it is, and the launcher
/// makes the namespace itself). A launcher started so is also its
/// sandbox's init: one process start fewer for each sandbox. Only the
/// calling thread is affected, and only while `start` runs; `start` must
/// not start a thread (the kernel refuses one while the thread's new
/// processes go to another PID namespace).
///
/// Such a launcher notices that its parent is gone as any launcher does,
/// and ends its sandbox.
pub fn in_own_pid_namespace<T>(start: impl FnOnce() -> T) -> T {
    #[cfg(target_os = "linux")]
    return linux::in_own_pid_namespace(start);
    #[cfg(not(target_os = "linux"))]
    start()
}

/// Makes the running program a sandbox launcher when it was started as one
/// (`<program> __sandbox ...`): then this never returns. Call it first thing
/// in `main`, before any thread starts. Otherwise it returns at once.
pub fn launcher_main() {
    let mut args = std::env::args();
    let _ = args.next();
    if args.next().as_deref() != Some(LAUNCHER_ARG) {
        return;
    }
    let step = args.next().unwrap_or_default();
    if step == "build" {
        println!("{BUILD}");
        std::process::exit(0);
    }
    #[cfg(target_os = "linux")]
    linux::launcher(&step);
    #[cfg(not(target_os = "linux"))]
    {
        eprintln!("whistle sandbox: bots can be sandboxed only on Linux ({step})");
        std::process::exit(EXIT_SETUP);
    }
}

/// Raises this process's soft limit on open files to its hard limit: a
/// server's connections and a tournament's bots and logs need more than the
/// usual 1024 (the sandboxes set their own bots' limit). Returns the limit
/// now in force, `None` where it cannot be read.
pub fn raise_open_files() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        use nix::sys::resource::{Resource, getrlimit, setrlimit};
        let (soft, hard) = getrlimit(Resource::RLIMIT_NOFILE).ok()?;
        if soft < hard && setrlimit(Resource::RLIMIT_NOFILE, hard, hard).is_ok() {
            return Some(hard);
        }
        Some(soft)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_read_the_reserved_statuses() {
        let l = Limits::default();
        assert_eq!(
            Verdict::of_exit(Some(EXIT_MEMORY), None, &l).to_string(),
            "memory limit 1024 MiB"
        );
        assert_eq!(
            Verdict::of_exit(Some(EXIT_CPU), None, &l),
            Verdict::Cpu(3600)
        );
        assert_eq!(Verdict::of_exit(Some(137), None, &l), Verdict::Signal(9));
        assert_eq!(Verdict::of_exit(Some(3), None, &l), Verdict::Exited(3));
        assert_eq!(Verdict::of_exit(None, Some(15), &l), Verdict::Signal(15));
        assert!(Verdict::of_exit(Some(EXIT_FILE_SIZE), None, &l).is_limit());
    }

    #[test]
    fn each_verdict_has_one_status_read_back_as_itself() {
        let l = Limits {
            cpus: Cpus::new(1.5),
            ..Limits::default()
        };
        for v in [
            Verdict::Exited(0),
            Verdict::Exited(3),
            Verdict::Signal(9),
            Verdict::Memory(l.memory_mib),
            Verdict::Cpu(l.cpu_s),
            Verdict::FileSize(l.file_mib),
            Verdict::Processes(l.processes),
            Verdict::CpuShare(l.cpus),
            Verdict::Scratch(l.scratch_mib),
            Verdict::Setup,
        ] {
            assert_eq!(Verdict::of_exit(Some(v.code()), None, &l), v, "{v}");
        }
        // A bot cannot pass for a limit.
        assert_eq!(Verdict::Exited(EXIT_MEMORY).code(), EXIT_BOT_MAX);
        assert_eq!(
            Verdict::CpuShare(l.cpus).say("x"),
            "whistle sandbox: CPU share limit 1.5 processors: x"
        );
    }

    #[test]
    fn cpus_read_as_a_number_of_processors() {
        let l: Limits = serde_json::from_str(r#"{"cpus": 2}"#).unwrap();
        assert_eq!(l.cpus, Cpus::new(2.0));
        let l: Limits = serde_json::from_str(r#"{"cpus": 0.25}"#).unwrap();
        assert_eq!(l.cpus.millis(), 250);
        assert!(l.check().is_ok());
        assert!(
            Limits {
                cpus: Cpus::new(0.01),
                ..Limits::default()
            }
            .check()
            .unwrap_err()
            .contains("cpus")
        );
        let back: Limits = serde_json::from_str(&serde_json::to_string(&l).unwrap()).unwrap();
        assert_eq!(back, l);
    }

    #[test]
    fn landlock_alone_is_used_only_when_asked() {
        let s = Support {
            landlock_abi: 6,
            namespaces: false,
            namespaces_error: Some("EPERM".into()),
            root: false,
            cgroup: None,
            cgroup_error: Some("none".into()),
        };
        if std::env::var(MODE_VAR).is_err() {
            let e = s.mode().unwrap_err();
            assert!(e.contains("AppArmor") && e.contains(MODE_VAR), "{e}");
        }
        assert!(s.describe(Mode::Landlock).contains("NOT guaranteed"));
        let ns = Support {
            namespaces: true,
            ..s
        };
        assert!(
            ns.describe(Mode::Namespaces)
                .contains("private read-only root")
        );
    }

    #[test]
    fn limits_are_checked() {
        assert!(Limits::default().check().is_ok());
        let bad = Limits {
            memory_mib: 0,
            ..Limits::default()
        };
        assert!(bad.check().unwrap_err().contains("memory_mib"));
    }

    #[test]
    fn runtimes_are_found_from_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().join("venv");
        std::fs::create_dir_all(venv.join("bin")).unwrap();
        std::fs::write(venv.join("bin/python"), "").unwrap();
        std::fs::write(venv.join("pyvenv.cfg"), "home = /opt/py/bin\n").unwrap();
        let found = runtime_paths(&venv.join("bin/python"));
        assert!(found.contains(&venv), "{found:?}");
        assert!(found.contains(&PathBuf::from("/opt/py")), "{found:?}");
        assert!(runtime_paths(Path::new("/work/target/release/whistle")).is_empty());
        let guesses = runtime_guesses(&venv.join("bin/python"));
        assert!(guesses.contains(&Guess {
            path: PathBuf::from("/opt/py"),
            named_by: Some(venv.clone()),
        }));
    }

    #[test]
    fn only_a_real_python_is_believed_from_a_pyvenv_cfg() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().join("venv");
        std::fs::create_dir_all(&venv).unwrap();
        let base = dir.path().join("py");
        std::fs::create_dir_all(base.join("bin")).unwrap();
        let cfg = format!("home = {}\n", base.join("bin").display());
        std::fs::write(venv.join("pyvenv.cfg"), cfg).unwrap();
        // Neither an interpreter nor its library: a folder named to be read.
        assert!(!names_a_python(&venv));
        let python = base.join("bin/python3.12");
        std::fs::write(&python, "").unwrap();
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(!names_a_python(&venv), "no lib/python3.*");
        std::fs::create_dir_all(base.join("lib/python3.12")).unwrap();
        assert!(names_a_python(&venv));
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(!names_a_python(&venv), "not executable");
        // A file named as the interpreter's folder.
        std::fs::write(venv.join("pyvenv.cfg"), "home = /etc/passwd/bin\n").unwrap();
        assert!(!names_a_python(&venv));
        assert!(!names_a_python(dir.path()), "no pyvenv.cfg");
    }

    #[test]
    fn system_programs_are_read_as_written() {
        assert!(in_system_paths(Path::new("/usr/bin/python3")));
        assert!(!in_system_paths(Path::new("/usr/../tmp/bin/python3")));
        assert!(!in_system_paths(Path::new("/tmp/teacher/bin/python3")));
        assert!(!in_system_paths(Path::new("usr/bin/python3")));
    }

    #[test]
    fn allocation_failures_are_recognised() {
        assert!(says_out_of_memory(
            "memory allocation of 10737418240 bytes failed"
        ));
        assert!(says_out_of_memory("Traceback...\nMemoryError\n"));
        assert!(!says_out_of_memory("all fine"));
    }
}
