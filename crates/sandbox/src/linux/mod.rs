//! The launcher's steps on Linux, each a fresh process of the same program:
//!
//! - `probe`: what the machine offers ([`crate::Support`]);
//! - `run`: the launcher. It makes the sandbox's cgroup ([`cgroups`]) and
//!   stays outside the sandbox to the end: in namespaces it enters them
//!   ([`namespaces`]) and starts `init`; with Landlock alone it starts
//!   `exec` as a child subreaper and watches ([`watchdog`]). Either way it
//!   exits only once every process of the sandbox is gone. Started as PID 1
//!   of a PID namespace of its own, run as root ([`in_own_pid_namespace`]),
//!   it is the sandbox's init as well ([`run_as_init`]);
//! - `init` (namespaces): PID 1 of the sandbox, undumpable. It builds the
//!   private root ([`mounts`]), starts `exec`, reaps orphans and watches.
//!   Run as root with nothing to watch (a cgroup keeps every limit), it
//!   starts the bot itself from a thread that confines itself as `exec`
//!   would ([`spawn_confined`]): one process start fewer;
//! - `exec`: the bot's own process. It becomes the bot's user
//!   ([`namespaces::become_bot`], namespaces), sets its limits ([`rlimits`]),
//!   confines itself ([`landlock::confine_self`]) and runs the bot.
//!
//! Run as root, the launcher's and init's own work yields to the bots'
//! ([`yield_to_bots`]): the bot runs at the caller's priority.

mod cgroups;
mod landlock;
mod mounts;
mod namespaces;
mod rlimits;
mod watchdog;

use std::{
    os::{fd::AsFd, unix::process::CommandExt},
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use nix::{
    sys::{
        prctl,
        signal::{SigSet, Signal, kill},
        signalfd::{SfdFlags, SignalFd},
        wait::{WaitPidFlag, WaitStatus, waitpid},
    },
    unistd::{Pid, getpid, getppid, getuid},
};

pub(crate) use self::namespaces::in_own_pid_namespace;
use self::{
    cgroups::Cgroup,
    watchdog::{Duties, Scope, Watch},
};
use crate::{
    CGROUP_VAR, EXIT_SETUP, LAUNCHER_ARG, Limits, Mode, NETNS_VAR, SPEC_VAR, Spec, Support, Verdict,
};

/// The nice value the bot runs at, where the launcher lowered its own
/// priority ([`yield_to_bots`]): the caller's.
const NICE_VAR: &str = "WHISTLE_SANDBOX_NICE";

/// One launcher in this many (by pid) removes the cgroups launchers killed
/// outright left behind ([`run`]).
const SWEEP_EVERY: i32 = 16;

/// The nice value of the launcher's and init's own work.
const SETUP_NICE: i32 = 19;

/// Lowers the priority of this launcher, and so of init, to the least
/// (nice 19), where the bot can be put back to the caller's own: run as
/// root with `CAP_SYS_NICE`. Returns the caller's nice value then.
///
/// Making and ending a sandbox (its cgroup, namespaces, private root, and
/// the exit of its processes) costs the machine some milliseconds of CPU,
/// and a runner makes the next matches' sandboxes while others play: at the
/// bots' priority that work set back the decisions it ran beside (the
/// demo's slow decisions, docs/benchmarks.md). At the least priority it
/// runs when the processor would otherwise wait. The bot itself, and init
/// or the launcher while they watch a limit, run at the caller's priority
/// ([`restore_priority`]): a limit is never kept late for it.
fn yield_to_bots() -> Option<i32> {
    use rustix::process::{getpriority_process, setpriority_process};
    if !getuid().is_root() || !may_raise_priority() {
        return None;
    }
    let own = getpriority_process(None).ok()?;
    if own >= SETUP_NICE {
        return None;
    }
    setpriority_process(None, SETUP_NICE).ok()?;
    Some(own)
}

/// Whether this process may raise its priority again (`CAP_SYS_NICE` in
/// its effective set): else the bot would keep the least.
fn may_raise_priority() -> bool {
    const CAP_SYS_NICE: u32 = 23;
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("CapEff:"))
                .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
        })
        .is_some_and(|caps| caps & (1 << CAP_SYS_NICE) != 0)
}

/// The caller's nice value, where a launcher before this step lowered its
/// own ([`NICE_VAR`]).
fn callers_nice() -> Result<Option<i32>, String> {
    match std::env::var(NICE_VAR) {
        Err(_) => Ok(None),
        Ok(v) => v
            .parse()
            .map(Some)
            .map_err(|_| format!("bad {NICE_VAR} {v:?}")),
    }
}

/// Puts the calling thread back to the caller's priority `nice`, where the
/// launcher lowered it ([`yield_to_bots`]). Fails only where it was lowered
/// and cannot be put back: the bot must not start at the least priority.
fn restore_priority(nice: Option<i32>) -> Result<(), String> {
    let Some(nice) = nice else {
        return Ok(());
    };
    rustix::process::setpriority_process(None, nice)
        .map_err(|e| format!("cannot put the bot's priority back to {nice}: {e}"))
}

fn fail(what: &str) -> ! {
    eprintln!("whistle sandbox: {what}");
    std::process::exit(EXIT_SETUP)
}

pub(crate) fn launcher(step: &str) -> ! {
    let args: Vec<String> = std::env::args().skip(3).collect();
    if step == "run" {
        close_inherited();
    }
    match step {
        "probe" => probe(),
        "probe-init" => probe_init(),
        "run" => run(),
        "init" => init(&args),
        "exec" => exec(&args),
        other => fail(&format!("unknown launcher step `{other}`")),
    }
}

/// Closes every descriptor but stdin, stdout and stderr that the launcher
/// was given: one whistle inherited without close-on-exec (`whistle ...
/// 7>>notes.txt`, a shell's or a CI runner's pipe) would otherwise reach
/// every bot, a shared object between sandboxes.
fn close_inherited() {
    let open: Vec<i32> = match std::fs::read_dir("/proc/self/fd") {
        Ok(entries) => entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter(|&fd| fd > 2)
            .collect(),
        Err(_) => Vec::new(),
    };
    // The listing's own descriptor is closed by now: closing it again only
    // fails with EBADF.
    for fd in open {
        let _ = nix::unistd::close(fd);
    }
}

fn spec() -> Spec {
    let text = std::env::var(SPEC_VAR).unwrap_or_else(|_| fail("no sandbox spec given"));
    serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("bad sandbox spec: {e}")))
}

fn me() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|e| fail(&format!("cannot find the launcher: {e}")))
}

/// A later step of the launcher, with the spec and the cgroup choice.
fn step(launcher: &Path, name: &str) -> Command {
    let mut cmd = Command::new(launcher);
    cmd.args([LAUNCHER_ARG, name])
        .env_clear()
        .env(SPEC_VAR, std::env::var(SPEC_VAR).unwrap_or_default());
    for var in [CGROUP_VAR, NICE_VAR] {
        if let Ok(v) = std::env::var(var) {
            cmd.env(var, v);
        }
    }
    cmd
}

fn probe() -> ! {
    let landlock_abi = landlock::abi();
    let root = getuid().is_root();
    // Before the namespaces, as the launcher does it.
    let cgroup = Cgroup::make(&Limits::default(), getpid(), true).map(|g| {
        let d = g.describe();
        g.remove();
        d
    });
    let namespaces = namespaces::enter(None).and_then(|()| {
        let out = step(&me(), "probe-init")
            .output()
            .map_err(|e| format!("cannot start a process in the namespaces: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        }
    });
    let support = Support {
        landlock_abi,
        namespaces: namespaces.is_ok(),
        namespaces_error: namespaces.err(),
        root,
        cgroup: cgroup.as_ref().ok().cloned(),
        cgroup_error: cgroup.err(),
    };
    println!(
        "{}",
        serde_json::to_string(&support).expect("a Support serializes")
    );
    std::process::exit(0)
}

/// Builds a private root as a sandbox's init would (for the probe).
fn probe_init() -> ! {
    let spec = Spec {
        mode: Mode::Namespaces,
        program: PathBuf::from("/bin/true"),
        args: Vec::new(),
        dir: PathBuf::from("/usr"),
        env: Vec::new(),
        read: Vec::new(),
        scratch: PathBuf::from("/whistle-probe-scratch"),
        limits: Limits::default(),
        referee_port: None,
        stdio: true,
    };
    match mounts::private_root(&spec, &me(), None) {
        Ok(true) => std::process::exit(0),
        Ok(false) => fail("cannot mount a private /proc"),
        Err(e) => fail(&e),
    }
}

/// The signals that end a sandbox early, and those of `also` (`SIGCHLD`:
/// a child's end wakes the launcher at once; `SIGXCPU`), read from a
/// descriptor (the launcher has no signal handler).
fn stop_signals(also: &[Signal]) -> Option<SignalFd> {
    let mut set = SigSet::empty();
    for s in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP]
        .iter()
        .chain(also)
    {
        set.add(*s);
    }
    set.thread_block().ok()?;
    SignalFd::with_flags(&set, SfdFlags::SFD_NONBLOCK | SfdFlags::SFD_CLOEXEC).ok()
}

/// The signal that tells the launcher to stop, if one came: `SIGXCPU`
/// before any other. Reads every signal waiting (a `SIGCHLD` only wakes
/// it).
fn stop_signal(fd: Option<&SignalFd>) -> Option<Signal> {
    let mut stop = None;
    if let Some(f) = fd {
        while let Ok(Some(info)) = f.read_signal() {
            let Ok(s) = Signal::try_from(info.ssi_signo as i32) else {
                continue;
            };
            if s != Signal::SIGCHLD && stop != Some(Signal::SIGXCPU) {
                stop = Some(s);
            }
        }
    }
    stop
}

/// How long a launcher that watches the limits (Landlock alone: nothing
/// else keeps them) sleeps between its looks; its child's end and the
/// signals that stop it wake it sooner.
const TICK: Duration = Duration::from_millis(5);

/// How long a launcher with nothing to watch (a cgroup keeps every limit)
/// sleeps between its looks at its parent (whistle gone: the launcher ends
/// its sandbox); its child's end and the signals that stop it wake it at
/// once. Every running sandbox has a launcher: at the 5 ms of [`TICK`],
/// the demo's launchers spent about 0.3 s of CPU on their looks. (Before
/// the launchers yielded to the bots, [`yield_to_bots`], their looks every
/// 5 ms kept this 2-core virtual machine's processors awake and the bots'
/// decisions quick; at the least priority they no longer do.)
const IDLE_TICK: Duration = Duration::from_millis(100);

/// Waits up to `tick` for a signal of [`stop_signals`] (a child's end
/// among them, where asked), or for `also` to be readable (a process's
/// descriptor: its end).
fn pause(fd: Option<&SignalFd>, also: Option<std::os::fd::BorrowedFd<'_>>, tick: Duration) {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    let mut fds: Vec<PollFd> = fd
        .map(|f| f.as_fd())
        .into_iter()
        .chain(also)
        .map(|f| PollFd::new(f, PollFlags::POLLIN))
        .collect();
    if fds.is_empty() {
        std::thread::sleep(tick);
        return;
    }
    let timeout = PollTimeout::try_from(tick).unwrap_or(PollTimeout::MAX);
    let _ = poll(&mut fds, timeout);
}

/// Lets go of the bot's stdin and stdout once it is started (their copies
/// here become `/dev/null`): when the bot closes its stdout, the end of the
/// pipe is whistle's to see (a stdio bot, docs/stdio.md).
fn release_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = nix::unistd::dup2_stdin(&null);
        let _ = nix::unistd::dup2_stdout(&null);
    }
}

/// The launcher: see the module's documentation.
fn run() -> ! {
    let spec = spec();
    if spec.mode == Mode::Namespaces && getpid().as_raw() == 1 && getuid().is_root() {
        run_as_init(spec);
    }
    let parent = getppid();
    let launcher = me();
    let signals = stop_signals(&[Signal::SIGCHLD]);
    let nice = yield_to_bots();
    // None: the watchdog keeps the limits (the probe says why).
    // Groups are left behind only by a launcher killed outright (SIGKILL):
    // every probe (each whistle process makes one) and one launcher in
    // SWEEP_EVERY (by its pid) removes them. A sweep looks at every group
    // beside this one and at each one's launcher: done at every start it
    // cost the demo's launchers more than the rest of the group's making.
    let sweep = getpid().as_raw() % SWEEP_EVERY == 0;
    let cgroup = Cgroup::make(&spec.limits, getpid(), sweep).ok();
    if let Some(g) = &cgroup {
        // Everything the launcher starts from now on is in the group.
        if let Err(e) = g.join(getpid()) {
            g.remove();
            fail(&format!("cannot join the sandbox's cgroup: {e}"));
        }
    }
    let covered = |c: &str| cgroup.as_ref().is_some_and(|g| g.has(c));
    let child = match spec.mode {
        Mode::Namespaces => {
            let outer = (getuid().as_raw(), nix::unistd::getgid().as_raw());
            let ids = if getuid().is_root() {
                Some(namespaces::bot_ids(getpid()))
            } else {
                None
            };
            let network = std::env::var_os(NETNS_VAR).map(PathBuf::from);
            if let Err(e) = namespaces::enter(network.as_deref()) {
                cleanup(cgroup.as_ref());
                fail(&format!("cannot enter the namespaces: {e}"));
            }
            let who = match ids {
                Some((u, g)) => format!("ids={u}:{g}"),
                None => format!("user={}:{}", outer.0, outer.1),
            };
            let duties = format!(
                "memory={},cpu={},pids={}",
                !covered("memory"),
                !covered("cpu"),
                !covered("pids")
            );
            // The first process started now is PID 1 of the new namespace.
            let mut init = step(&launcher, "init");
            if let Some(n) = nice {
                init.env(NICE_VAR, n.to_string());
            }
            init.args([who, duties]).spawn()
        }
        Mode::Landlock => {
            // Orphans of the bot's come back to the launcher, which ends
            // them all.
            let _ = prctl::set_child_subreaper(true);
            // Without a user namespace, RLIMIT_NPROC counts every task of
            // the user: the bot's limit comes on top of those it has now,
            // unless the cgroup bounds the sandbox's own.
            let base = if covered("pids") {
                None
            } else {
                Some(watchdog::tasks_of_user(getuid().as_raw()))
            };
            let mut exec = step(&launcher, "exec");
            if let Some(n) = nice {
                exec.env(NICE_VAR, n.to_string());
            }
            exec.arg(base.map_or("landlock".into(), |b| format!("landlock:{b}")))
                .spawn()
        }
    };
    let child = match child {
        Ok(c) => Pid::from_raw(c.id() as i32),
        Err(e) => {
            cleanup(cgroup.as_ref());
            fail(&format!("cannot start the sandbox: {e}"))
        }
    };
    if let Some(g) = &cgroup {
        g.leave(getpid());
    }
    release_stdio();
    if spec.mode == Mode::Landlock {
        // The launcher watches the limits from now on.
        if let Some(n) = nice {
            let _ = rustix::process::setpriority_process(None, n);
        }
    }
    let mut watch = (spec.mode == Mode::Landlock).then(|| {
        Watch::new(
            spec.limits,
            Duties {
                processes: !covered("pids"),
                memory: !covered("memory"),
                cpu_share: !covered("cpu"),
                scratch: Some(spec.scratch.clone()),
            },
            Scope::Descendants,
            Vec::new(),
        )
    });
    let ended = |status: WaitStatus| match status {
        WaitStatus::Exited(_, code) => Some(Verdict::of_exit(Some(code), None, &spec.limits)),
        WaitStatus::Signaled(_, sig, _) => Some(match spec.mode {
            // The bot itself (Landlock alone).
            Mode::Landlock => of_signal(sig, &spec.limits),
            Mode::Namespaces => Verdict::Signal(sig as i32),
        }),
        _ => None,
    };
    let verdict = loop {
        // Read first: a child that ends from now on wakes the pause below.
        let stop = stop_signal(signals.as_ref()).is_some() || getppid() != parent;
        // The child's end, and orphans (Landlock alone) as they come.
        if let (Some(v), _) = reap(child, ended) {
            break v;
        }
        if let Some(w) = watch.as_mut() {
            if let Some((v, detail)) = w.check() {
                eprintln!("{}", v.say(&detail));
                let _ = kill(child, Signal::SIGKILL);
                end_all(cgroup.as_ref(), child);
                break v;
            }
        }
        if stop {
            let _ = kill(child, Signal::SIGKILL);
            end_all(cgroup.as_ref(), child);
            break Verdict::Signal(Signal::SIGKILL as i32);
        }
        pause(
            signals.as_ref(),
            None,
            if watch.is_some() { TICK } else { IDLE_TICK },
        );
    };
    let verdict = with_counts(verdict, cgroup.as_ref(), &spec.limits);
    end_all(cgroup.as_ref(), child);
    cleanup(cgroup.as_ref());
    std::process::exit(verdict.code())
}

/// The sandbox's verdict `verdict` as the cgroup's counts tell it: a limit
/// where the kernel kept one.
fn with_counts(verdict: Verdict, cgroup: Option<&Cgroup>, limits: &Limits) -> Verdict {
    // The cgroup refused forks at its task limit and the bot did not end
    // cleanly: the process limit stopped it.
    let refused = cgroup.map_or(0, Cgroup::forks_refused);
    let verdict = if refused > 0 && !verdict.is_limit() && verdict != Verdict::Exited(0) {
        let v = Verdict::Processes(limits.processes);
        eprintln!(
            "{}",
            v.say(&format!(
                "the kernel refused {refused} of the bot's forks at the limit ({verdict})"
            ))
        );
        v
    } else {
        verdict
    };
    let oom = cgroup.map_or(0, Cgroup::oom_kills);
    // The kernel killed a process of the sandbox for its memory: the
    // sandbox hit its memory limit, whatever its first process did next.
    if oom > 0 && !verdict.is_limit() {
        let v = Verdict::Memory(limits.memory_mib);
        eprintln!(
            "{}",
            v.say(&format!(
                "the kernel stopped {oom} of the bot's processes for it ({verdict})"
            ))
        );
        v
    } else {
        verdict
    }
}

/// Reaps every child of the launcher that has ended, without waiting: the
/// verdict `ended` gives once `child` has ended, `Setup` where there is no
/// child to wait for; and whether it reaped any other (an orphan).
fn reap(child: Pid, ended: impl Fn(WaitStatus) -> Option<Verdict>) -> (Option<Verdict>, bool) {
    let mut orphans = false;
    loop {
        match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => return (None, orphans),
            Ok(status) if status.pid() == Some(child) => {
                if let Some(v) = ended(status) {
                    return (Some(v), orphans);
                }
            }
            Ok(_) => orphans = true,
            Err(_) => return (Some(Verdict::Setup), orphans),
        }
    }
}

/// Kills every process of the sandbox and waits until none is left: the
/// cgroup's, and the launcher's descendants (its orphans come back to it).
fn end_all(cgroup: Option<&Cgroup>, child: Pid) {
    let me = getpid();
    for _ in 0..400 {
        // Empty now: nothing can join it again (no process of it is left
        // to start one).
        let emptied = cgroup.is_none_or(|g| g.kill_all(me, 1));
        let left = watchdog::descendant_pids();
        for p in &left {
            let _ = kill(*p, Signal::SIGKILL);
        }
        // Reap whatever ended (the sandbox's init or the bot first).
        let _ = waitpid(child, Some(WaitPidFlag::WNOHANG));
        while let Ok(WaitStatus::Exited(..) | WaitStatus::Signaled(..)) =
            waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG))
        {}
        let in_group = match cgroup {
            Some(g) if !emptied => g.procs().iter().filter(|p| **p != me).count(),
            _ => 0,
        };
        if left.is_empty() && in_group == 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn cleanup(cgroup: Option<&Cgroup>) {
    if let Some(g) = cgroup {
        g.remove();
    }
}

/// The verdict of the bot's process ended by `sig`.
fn of_signal(sig: Signal, l: &Limits) -> Verdict {
    match sig {
        Signal::SIGXCPU => Verdict::Cpu(l.cpu_s),
        Signal::SIGKILL if cpu_seconds_of_children() >= l.cpu_s => Verdict::Cpu(l.cpu_s),
        Signal::SIGXFSZ => Verdict::FileSize(l.file_mib),
        other => Verdict::Signal(other as i32),
    }
}

fn cpu_seconds_of_children() -> u64 {
    nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .map(|u| (u.user_time().tv_sec() + u.system_time().tv_sec()) as u64)
        .unwrap_or(0)
}

/// `ids=U:G` or `user=U:G` as (ids for the bot, outer user).
fn who(arg: &str) -> (Option<(u32, u32)>, (u32, u32)) {
    let pair = |s: &str| {
        let (u, g) = s.split_once(':')?;
        Some((u.parse().ok()?, g.parse().ok()?))
    };
    if let Some(ids) = arg.strip_prefix("ids=").and_then(pair) {
        return (Some(ids), ids);
    }
    if let Some(outer) = arg.strip_prefix("user=").and_then(pair) {
        return (None, outer);
    }
    fail(&format!("bad launcher argument {arg:?}"))
}

/// The launcher started as PID 1 of a PID namespace of its own, run as
/// root ([`in_own_pid_namespace`]): the launcher and its sandbox's init in
/// one process, one process start fewer than `run` then `init`. It makes
/// the cgroup and joins it, enters the other namespaces, pins the cgroup
/// ([`Cgroup::pin`]: the private root hides the host's cgroup folders),
/// builds the private root and starts the bot as init does; then it does
/// what both would: reaps, watches a limit no cgroup keeps, stops on a
/// signal or once its parent is gone, and at the end kills every process
/// of the namespace, reads the cgroup's counts, removes it and exits with
/// the verdict.
fn run_as_init(spec: Spec) -> ! {
    let launcher = me();
    // A child's end does not wake it: the bot's end does (its descriptor,
    // below), and its orphans are reaped once a tick, all at once (else
    // each of a flood of them woke the launcher). SIGXCPU: see below.
    let signals = stop_signals(&[Signal::SIGXCPU]);
    let nice = yield_to_bots();
    // Its memory and tracing need a capability the bot lacks.
    let _ = prctl::set_dumpable(false);
    let mut host = HostSelf::open().unwrap_or_else(|e| fail(&e));
    let sweep = host.pid.as_raw() % SWEEP_EVERY == 0;
    let mut cgroup = Cgroup::make(&spec.limits, host.pid, sweep).ok();
    if let Some(g) = &cgroup {
        if let Err(e) = g.join(getpid()) {
            g.remove();
            fail(&format!("cannot join the sandbox's cgroup: {e}"));
        }
    }
    let covered = |c: &str| cgroup.as_ref().is_some_and(|g| g.has(c));
    let (memory, cpu, pids) = (covered("memory"), covered("cpu"), covered("pids"));
    let network = std::env::var_os(NETNS_VAR).map(PathBuf::from);
    let entered = namespaces::enter_as_init(network.as_deref())
        .and_then(|()| cgroup.as_mut().map_or(Ok(()), Cgroup::pin));
    if let Err(e) = entered {
        cleanup(cgroup.as_ref());
        fail(&format!("cannot enter the namespaces: {e}"));
    }
    // The bot's uid is made of the launcher's pid on the host: no other
    // process of the machine has it.
    let ids = namespaces::bot_ids(host.pid);
    let proc_ok = mounts::private_root(&spec, &launcher, Some(ids)).unwrap_or_else(|e| {
        cleanup(cgroup.as_ref());
        fail(&e)
    });
    if proc_ok {
        bound_tasks(&spec.limits);
    }
    let duties = Duties {
        processes: proc_ok && !pids,
        memory: proc_ok && !memory,
        cpu_share: proc_ok && !cpu,
        scratch: None,
    };
    let watches = duties.processes || duties.memory || duties.cpu_share;
    let who = format!("ids={}:{}", ids.0, ids.1);
    let bot = start_bot(&spec, &launcher, (&who, Some(ids)), !pids, watches, nice);
    if let Some(g) = &cgroup {
        g.leave_memory(getpid(), spec.limits.processes);
    }
    // The bot's end wakes the launcher at once; where the kernel gives no
    // process descriptor (before Linux 5.3) it looks every `TICK`.
    let bot_fd = rustix::process::Pid::from_raw(bot.as_raw())
        .and_then(|p| rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok());
    release_stdio();
    if watches {
        // It watches the limits from now on.
        let _ = restore_priority(nice);
    }
    let mut watch = Watch::new(
        spec.limits,
        duties,
        Scope::Namespace,
        vec![spec.scratch.clone(), PathBuf::from("/dev/shm")],
    );
    let tick = if watch.idle() && bot_fd.is_some() {
        IDLE_TICK
    } else {
        TICK
    };
    let ended = |status: WaitStatus| match status {
        WaitStatus::Exited(_, code) => Some(Verdict::of_exit(Some(code), None, &spec.limits)),
        WaitStatus::Signaled(_, sig, _) => Some(of_signal(sig, &spec.limits)),
        _ => None,
    };
    let verdict = loop {
        // Read first: a child that ends from now on wakes the pause below.
        let signal = stop_signal(signals.as_ref());
        if signal == Some(Signal::SIGXCPU) {
            // The bot's limits are set on this process before the bot
            // starts (the bot inherits them; only `CAP_SYS_RESOURCE` could
            // raise them again here), its CPU time among them, and this
            // process's time is spent on the bot's processes (reaping
            // them): at the soft limit the sandbox ends, with the bot's
            // verdict, before the kernel's SIGKILL at the hard one.
            let v = Verdict::Cpu(spec.limits.cpu_s);
            eprintln!(
                "{}",
                v.say("the sandbox's init spent it on the bot's processes")
            );
            break v;
        }
        let stop = signal.is_some() || host.parent_gone(tick);
        // The bot's end, and its orphans: where there were some, it looks
        // again after `TICK` (they hold the bot's tasks until reaped).
        let (over, orphans) = reap(bot, ended);
        if let Some(v) = over {
            if v.is_limit() {
                eprintln!("{}", v.say(""));
            }
            break v;
        }
        if let Some((v, detail)) = watch.check() {
            eprintln!("{}", v.say(&detail));
            break v;
        }
        if stop {
            break Verdict::Signal(Signal::SIGKILL as i32);
        }
        pause(
            signals.as_ref(),
            bot_fd.as_ref().map(AsFd::as_fd),
            if orphans { TICK } else { tick },
        );
    };
    end_namespace();
    let verdict = with_counts(verdict, cgroup.as_ref(), &spec.limits);
    cleanup(cgroup.as_ref());
    std::process::exit(verdict.code())
}

/// Kills every other process of this PID namespace (the caller is its
/// init) and reaps them until none is left: each ends as the init's child
/// (an orphan comes back to it), so once it has no child, none is left.
fn end_namespace() {
    for _ in 0..400 {
        let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
        loop {
            match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
                Ok(WaitStatus::StillAlive) => break,
                Ok(_) => {}
                Err(_) => return,
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The launcher that is PID 1 of its sandbox as the host's `/proc` shows
/// it: its pid there, and whether the parent that started it is gone
/// (`getppid` shows none across the namespace's edge). Read through a
/// descriptor of its folder in the host's `/proc`, held open: the private
/// root hides the host's `/proc`, and the sandbox's own shows this
/// process's descriptors.
struct HostSelf {
    folder: std::fs::File,
    pid: Pid,
    parent: Option<i32>,
    /// When it last looked at its parent.
    looked: std::time::Instant,
}

impl HostSelf {
    fn open() -> Result<HostSelf, String> {
        let err = |e: std::io::Error| format!("cannot read this process in /proc: {e}");
        let pid = std::fs::read_link("/proc/self")
            .map_err(err)?
            .to_str()
            .and_then(|p| p.parse().ok())
            .map(Pid::from_raw)
            .ok_or("cannot read this process's pid in /proc")?;
        let folder = std::fs::File::open(format!("/proc/{pid}")).map_err(err)?;
        let mut me = HostSelf {
            folder,
            pid,
            parent: None,
            looked: std::time::Instant::now(),
        };
        me.parent = me.read_parent();
        Ok(me)
    }

    fn read_parent(&self) -> Option<i32> {
        use std::os::fd::AsRawFd;
        let stat =
            std::fs::read_to_string(format!("/proc/self/fd/{}/stat", self.folder.as_raw_fd()))
                .ok()?;
        // `PID (COMM) STATE PPID ...`: the name may hold spaces and `)`.
        let rest = &stat[stat.rfind(')')? + 1..];
        rest.split_whitespace().nth(1)?.parse().ok()
    }

    /// Whether the process that started the launcher has ended (it then
    /// has another parent), looked at once every `tick` at most (the end
    /// of each orphan of the bot's wakes the launcher too). Where the
    /// host's `/proc` cannot be read it says no.
    fn parent_gone(&mut self, tick: Duration) -> bool {
        if self.looked.elapsed() < tick {
            return false;
        }
        self.looked = std::time::Instant::now();
        match (self.parent, self.read_parent()) {
            (Some(was), Some(now)) => was != now,
            _ => false,
        }
    }
}

/// PID 1 of a sandbox in namespaces.
fn init(args: &[String]) -> ! {
    // Ends with its launcher.
    let _ = prctl::set_pdeathsig(Signal::SIGKILL);
    // Its memory and tracing need a capability the bot lacks.
    let _ = prctl::set_dumpable(false);
    let spec = spec();
    let launcher = me();
    let nice = callers_nice().unwrap_or_else(|e| fail(&e));
    let who_arg = args.first().map_or("", String::as_str);
    let (ids, _) = who(who_arg);
    let duties = args.get(1).map_or("", String::as_str);
    let proc_ok = mounts::private_root(&spec, &launcher, ids).unwrap_or_else(|e| fail(&e));
    if proc_ok {
        bound_tasks(&spec.limits);
    }
    // Whether init will watch anything (else a cgroup keeps every limit).
    let watches = proc_ok && duties.contains("=true");
    let bot = start_bot(
        &spec,
        &launcher,
        (who_arg, ids),
        !duties.contains("pids=false"),
        watches,
        nice,
    );
    release_stdio();
    if watches {
        // Init watches the limits from now on.
        let _ = restore_priority(nice);
    }
    let mut watch = Watch::new(
        spec.limits,
        Duties {
            processes: proc_ok && duties.contains("pids=true"),
            memory: proc_ok && duties.contains("memory=true"),
            cpu_share: proc_ok && duties.contains("cpu=true"),
            scratch: None,
        },
        Scope::Namespace,
        vec![spec.scratch.clone(), PathBuf::from("/dev/shm")],
    );
    // With nothing to watch (a cgroup keeps every limit), init only reaps.
    let flags = (!watch.idle()).then_some(WaitPidFlag::WNOHANG);
    loop {
        match waitpid(Pid::from_raw(-1), flags) {
            Ok(WaitStatus::StillAlive) => {
                if let Some((v, detail)) = watch.check() {
                    end(v, &detail);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(WaitStatus::Exited(pid, code)) if pid == bot => {
                end(Verdict::of_exit(Some(code), None, &spec.limits), "")
            }
            Ok(WaitStatus::Signaled(pid, sig, _)) if pid == bot => {
                end(of_signal(sig, &spec.limits), "")
            }
            // An orphan of the bot's, reaped; the bot goes on.
            Ok(_) => {}
            Err(_) => std::process::exit(EXIT_SETUP),
        }
    }
}

/// A hard bound on the tasks of this PID namespace (Linux 6.14 and later
/// keep `pid_max` per namespace; 301 is its least value): a fork bomb
/// outruns any watchdog where no cgroup bounds it. Written by the
/// sandbox's init into its own `/proc`.
fn bound_tasks(limits: &Limits) {
    let bound = (limits.processes + 2).max(301);
    let _ = std::fs::write("/proc/sys/kernel/pid_max", bound.to_string());
}

/// Starts the bot's process from the sandbox's init, in its private root:
/// `who` is the launcher's argument for the bot's user and what it says
/// (the bot's own ids run as root); `rlimit_nproc`: no cgroup bounds the
/// tasks (`RLIMIT_NPROC` does); `watches`: init watches a limit; `nice`:
/// the caller's priority, where the launcher lowered its own.
fn start_bot(
    spec: &Spec,
    launcher: &Path,
    who: (&str, Option<(u32, u32)>),
    rlimit_nproc: bool,
    watches: bool,
    nice: Option<i32>,
) -> Pid {
    match who.1 {
        // Run as root, the bot's user is a uid of its own: a thread of init
        // confines itself and starts the bot, with no launcher step between.
        Some(ids) if !watches => spawn_confined(spec, ids, rlimit_nproc, nice),
        _ => {
            let mut exec = step(launcher, "exec");
            if let Some(n) = nice {
                exec.env(NICE_VAR, n.to_string());
            }
            // Where the cgroup bounds the tasks, a refused fork is its to
            // count.
            let nproc = if rlimit_nproc {
                "nproc=rlimit"
            } else {
                "nproc=cgroup"
            };
            match exec.args([who.0, nproc]).spawn() {
                Ok(c) => Pid::from_raw(c.id() as i32),
                Err(e) => fail(&format!("cannot start the bot's process: {e}")),
            }
        }
    }
}

/// Starts the bot from init when init runs as root (the bot's user is
/// `ids`, a uid and gid of its own) and has nothing to watch (a cgroup keeps
/// every limit: init only waits), without starting the launcher's `exec`
/// step: init sets the bot's limits (a process's own: they bound init too,
/// which from now on only waits), then a thread of init confines itself
/// (Landlock, then the system-call filter: both apply to the calling thread
/// only, and are inherited by the processes it starts) and starts the bot
/// as `ids`. The bot's process is init's child, as the `exec` step's is:
/// init itself stays outside its Landlock domain and filter.
/// `rlimit_nproc`: the processes are bounded by `RLIMIT_NPROC` (no cgroup
/// bounds them).
///
/// The thread becomes the bot's user itself before it confines itself
/// (for the kernel a user is a thread's own: init's other threads stay
/// root), so the bot's process is started as the standard library starts
/// one with no user to change, `posix_spawn`, which shares init's memory
/// until the bot runs, rather than a `fork` that copies it.
///
/// Unlike the `exec` step (`setgroups` to the bot's gid), the bot starts
/// with no supplementary group.
fn spawn_confined(spec: &Spec, ids: (u32, u32), rlimit_nproc: bool, nice: Option<i32>) -> Pid {
    if let Err(e) = rlimits::set(spec, rlimit_nproc.then_some(0)) {
        fail(&e);
    }
    let started = std::thread::scope(|s| {
        s.spawn(|| {
            // The bot starts at the caller's priority (a thread's own).
            restore_priority(nice)?;
            namespaces::become_bot_thread(ids)?;
            landlock::confine_self(spec)?;
            // The launcher's blocked signals reach init (and this thread):
            // the bot starts with none blocked, as the `exec` step's does.
            // (From its start until this thread ends, the bot may signal
            // it, the same user in the same Landlock domain: the kernel
            // drops every signal init has no handler for, SIGKILL and
            // SIGSTOP included; the standard library's handler of SIGSEGV
            // and SIGBUS, for a stack overflow, only resets itself.)
            SigSet::empty()
                .thread_set_mask()
                .map_err(|e| format!("cannot unblock the bot's signals: {e}"))?;
            Command::new(&spec.program)
                .args(&spec.args)
                .current_dir(&spec.dir)
                .env_clear()
                .envs(spec.env.iter().map(|(k, v)| (k, v)))
                .spawn()
                .map_err(|e| format!("cannot start {}: {e}", spec.program.display()))
        })
        .join()
    });
    match started {
        Ok(Ok(child)) => Pid::from_raw(child.id() as i32),
        Ok(Err(e)) => fail(&e),
        Err(_) => fail("the thread that starts the bot failed"),
    }
}

/// The end of a sandbox's init: every process of the namespace killed, the
/// verdict said (a limit's) and turned into the exit status.
fn end(v: Verdict, detail: &str) -> ! {
    if v.is_limit() {
        eprintln!("{}", v.say(detail));
    }
    let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
    std::process::exit(v.code())
}

/// The bot's own process: becomes the bot's user (namespaces), sets its
/// limits, confines itself and runs the bot.
fn exec(args: &[String]) -> ! {
    let spec = spec();
    // Before it gives up its capabilities.
    if let Err(e) = callers_nice().and_then(restore_priority) {
        fail(&e);
    }
    if spec.mode == Mode::Namespaces {
        let (ids, outer) = who(args.first().map_or("", String::as_str));
        if let Err(e) = namespaces::become_bot(ids, outer) {
            fail(&format!("cannot become the bot's user: {e}"));
        }
    }
    // Landlock alone: the user's tasks already running (RLIMIT_NPROC counts
    // them), or none where the cgroup bounds the sandbox's.
    let tasks_before = match args.first().map(String::as_str) {
        Some("landlock") => None,
        Some(a) if a.starts_with("landlock:") => {
            Some(a["landlock:".len()..].parse::<u64>().unwrap_or(0))
        }
        _ if args.get(1).map(String::as_str) == Some("nproc=cgroup") => None,
        _ => Some(0),
    };
    if let Err(e) = rlimits::set(&spec, tasks_before).and_then(|()| landlock::confine_self(&spec)) {
        fail(&e);
    }
    // The launcher blocks the signals that stop it (read from a
    // descriptor) and a blocked signal stays blocked across `fork` and
    // `exec`: the bot starts with none blocked, as a program started from
    // a shell does (else a SIGTERM to it or to its children, a Python
    // `Pool.terminate()` among them, would wait forever).
    if let Err(e) = SigSet::empty().thread_set_mask() {
        fail(&format!("cannot unblock the bot's signals: {e}"));
    }
    let err = Command::new(&spec.program)
        .args(&spec.args)
        .current_dir(&spec.dir)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .exec();
    fail(&format!("cannot start {}: {err}", spec.program.display()))
}
