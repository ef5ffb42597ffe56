//! Confines the bot programs whistle starts.
//!
//! A bot is untrusted code run on the organiser's machine. Where the kernel
//! allows it without privileges, a sandboxed bot runs
//!
//! - in its own user, PID, mount, network, IPC and UTS namespaces
//!   ([`Mode::Namespaces`]): it sees no other process (a `/proc` of its own),
//!   can signal or trace none, and has no network at all: it reaches the
//!   referee through a Unix socket (`WHISTLE_ADDRESS=unix:PATH`);
//! - under a Landlock ruleset: it reads only its own folder, the system's
//!   libraries and language runtimes and the paths it is granted, all
//!   read-only, and writes only its scratch folder (a size-capped `tmpfs`,
//!   its `HOME` and `TMPDIR`);
//! - under resource limits ([`Limits`]): memory, processes and threads, CPU
//!   time, file size and open files, with a watchdog that stops a sandbox
//!   whose resident memory passes the limit;
//! - under a system-call filter (seccomp, built with `seccompiler`; the list
//!   and the reasons in `filter.rs` and docs/fair-play.md, in short
//!   [`REFUSED_CALLS`]): nothing through which it could pass information to
//!   another bot (file locks, inotify, SysV IPC, message queues, keyrings),
//!   hold memory no limit counts (memfd), reach another process (ptrace) or
//!   leave its sandbox (mounts, namespaces, io_uring), and no socket but the
//!   kind it reaches the referee by: Unix stream sockets in namespaces, TCP
//!   under Landlock alone, none for a stdio bot ([`Spec::stdio`]).
//!
//! Where user namespaces are disabled or restricted (Ubuntu 24.04 allows them
//! only to programs its AppArmor profiles name), Landlock alone confines the
//! bot ([`Mode::Landlock`], Landlock ABI 6 or later): the same file rules, TCP
//! connections only to the referee's port and no listening, the same
//! system-call filter (so no UDP and no Unix sockets), signals and
//! abstract Unix sockets only within the sandbox, tracing only of its own
//! children, no `/proc` at all; the scratch folder's size is then bounded by
//! the file-size limit only. Where neither can be had, [`probe`] says why and
//! whistle refuses to start bots unless the organiser opts out.
//!
//! The work happens in a fresh, single-threaded process (a user namespace can
//! only be entered by one): the running program calls [`launcher_main`] first
//! thing in `main`, and a sandboxed bot is started as
//! `<launcher> __sandbox run` with its [`Spec`] in the environment
//! ([`Spec::command`]). Inside the namespaces a small init process (PID 1)
//! mounts the scratch `tmpfs` and a private `/proc`, applies the limits, the
//! Landlock ruleset and the system-call filter (which the init, the watchdog,
//! then runs under too: it needs none of the refused calls), starts the bot, reaps orphans, watches memory and
//! turns the way the bot ended into the launcher's exit status
//! ([`Verdict::of_exit`]).

use std::{
    fmt,
    path::{Path, PathBuf},
    process::Command,
    sync::OnceLock,
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

/// Exit status of a launcher whose bot was stopped by the memory watchdog.
pub const EXIT_MEMORY: i32 = 251;
/// Exit status of a launcher whose bot ran out of CPU time.
pub const EXIT_CPU: i32 = 252;
/// Exit status of a launcher whose bot wrote a file above the size limit.
pub const EXIT_FILE_SIZE: i32 = 253;
/// Exit status of a launcher that could not make the sandbox.
pub const EXIT_SETUP: i32 = 254;
/// Exit status of a launcher whose bot started more processes than allowed.
pub const EXIT_PROCESSES: i32 = 250;
/// A bot's own exit status at or above this is reported as this, so that a
/// bot cannot pass for a limit.
pub const EXIT_BOT_MAX: i32 = 249;

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
    /// Size of the scratch folder, MiB.
    pub scratch_mib: u64,
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
        }
    }
}

impl Limits {
    /// The names of the limits as files write them, with their values.
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
                "a Unix socket (no network; it may open Unix stream sockets only, which can reach \
                 any Unix socket of the machine its user may write)"
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
    bpf, io_uring, mounts and namespaces, typing into a terminal, modules and kexec";

/// What this machine offers, as the launcher found it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Support {
    /// The kernel's Landlock ABI (0: none).
    pub landlock_abi: u32,
    /// Whether unprivileged user namespaces (with PID, mount and network
    /// namespaces, `/proc` and `tmpfs` mounts inside) work.
    pub namespaces: bool,
    /// Why namespaces do not work, if they do not.
    pub namespaces_error: Option<String>,
    /// Whether whistle runs as root.
    pub root: bool,
}

impl Support {
    /// The mode to use here (honouring [`MODE_VAR`]).
    ///
    /// # Errors
    /// Why no sandbox can be made on this machine.
    pub fn mode(&self) -> Result<Mode, String> {
        let forced = std::env::var(MODE_VAR).ok();
        if self.landlock_abi == 0 {
            return Err(
                "this kernel has no Landlock (Linux 5.13 or later with `landlock` in its \
                 `lsm=` list is needed)"
                    .into(),
            );
        }
        if self.namespaces && forced.as_deref() != Some("landlock") {
            return Ok(Mode::Namespaces);
        }
        if self.landlock_abi >= 6 && !self.root {
            return Ok(Mode::Landlock);
        }
        if self.landlock_abi >= 6 {
            return Err(format!(
                "unprivileged user namespaces are not available ({}), and Landlock alone cannot \
                 bound the processes of a bot run by root (the kernel exempts root from \
                 RLIMIT_NPROC): run whistle as an ordinary user",
                self.namespaces_error.as_deref().unwrap_or("disabled"),
            ));
        }
        Err(format!(
            "unprivileged user namespaces are not available ({}) and this kernel's Landlock \
             (ABI {}) cannot confine signals and TCP without them (ABI 6, Linux 6.12, is needed)",
            self.namespaces_error.as_deref().unwrap_or("disabled"),
            self.landlock_abi
        ))
    }
}

/// Asks `launcher` (a program that calls [`launcher_main`]) what this machine
/// offers. The answer is kept for the life of the process.
///
/// # Errors
/// Why no sandbox can be made here (not Linux, no Landlock, neither
/// namespaces nor a recent enough Landlock).
pub fn probe(launcher: &Path) -> Result<(Mode, Support), String> {
    static SUPPORT: OnceLock<Result<Support, String>> = OnceLock::new();
    let support = SUPPORT.get_or_init(|| probe_uncached(launcher)).clone()?;
    Ok((support.mode()?, support))
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

/// The folders a program needs to run beyond [`system_paths`], found from
/// the program itself: for a program in `PREFIX/bin` (a language runtime
/// installed under a home folder, `pyenv`'s shims, a virtual environment),
/// `PREFIX` of the program and of its resolved link; for a Python virtual
/// environment, the base interpreter's prefix its `pyvenv.cfg` names.
/// The caller decides whether a path found here may be granted.
pub fn runtime_paths(program: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
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
        if named_bin && !out.contains(&prefix.to_path_buf()) {
            out.push(prefix.to_path_buf());
            out.extend(venv_base(prefix));
        }
    }
    out
}

/// The folder of the interpreter a Python virtual environment at `prefix`
/// links to (the parent of its `pyvenv.cfg`'s `home`), if `prefix` is one.
pub fn venv_base(prefix: &Path) -> Option<PathBuf> {
    let cfg = std::fs::read_to_string(prefix.join("pyvenv.cfg")).ok()?;
    cfg.lines()
        .filter_map(|line| line.split_once('='))
        .find(|(k, _)| k.trim() == "home")
        .and_then(|(_, v)| Path::new(v.trim()).parent().map(Path::to_path_buf))
}

/// Finds a bare program name in `path_var` (a `PATH` value).
pub fn which(name: &str, path_var: &str) -> Option<PathBuf> {
    std::env::split_paths(path_var)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// How a sandboxed bot's process ended, read from its launcher's exit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It exited by itself with this status (0: cleanly).
    Exited(i32),
    /// A signal ended it.
    Signal(i32),
    /// The memory watchdog stopped it.
    Memory(u64),
    /// It ran out of CPU time.
    Cpu(u64),
    /// It wrote a file above the size limit.
    FileSize(u64),
    /// It held more processes than allowed.
    Processes(u64),
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
            (Some(c), _) if c > 128 && c < 128 + 65 => Verdict::Signal(c - 128),
            (Some(c), _) => Verdict::Exited(c),
            (None, Some(s)) => Verdict::Signal(s),
            (None, None) => Verdict::Exited(-1),
        }
    }

    /// Whether a limit stopped the bot.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            Verdict::Memory(_) | Verdict::Cpu(_) | Verdict::FileSize(_) | Verdict::Processes(_)
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
