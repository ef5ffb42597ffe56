//! The launcher's three steps on Linux: `probe`, `run` (enter the
//! namespaces, or apply Landlock and become the bot) and `init` (PID 1 of a
//! sandbox).

use std::{
    os::unix::process::{CommandExt, ExitStatusExt},
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, path_beneath_rules,
};
use nix::{
    mount::{MsFlags, mount},
    sched::{CloneFlags, unshare},
    sys::{
        resource::{Resource, UsageWho, getrusage, setrlimit},
        signal::{Signal, kill},
        wait::{WaitPidFlag, WaitStatus, waitpid},
    },
    unistd::{Pid, getgid, getuid},
};

use crate::{
    EXIT_BOT_MAX, EXIT_CPU, EXIT_FILE_SIZE, EXIT_MEMORY, EXIT_PROCESSES, EXIT_SETUP, LAUNCHER_ARG,
    Mode, SPEC_VAR, Spec, Support, system_paths,
};

/// The newest Landlock ABI whistle asks for.
const ABI_USED: ABI = ABI::V6;

fn fail(what: &str) -> ! {
    eprintln!("whistle sandbox: {what}");
    std::process::exit(EXIT_SETUP)
}

pub(crate) fn launcher(step: &str) -> ! {
    match step {
        "probe" => probe(),
        "probe-init" => probe_init(),
        "run" => run(),
        "init" => init(),
        other => fail(&format!("unknown launcher step `{other}`")),
    }
}

fn spec() -> Spec {
    let text = std::env::var(SPEC_VAR).unwrap_or_else(|_| fail("no sandbox spec given"));
    serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("bad sandbox spec: {e}")))
}

fn landlock_abi() -> u32 {
    let hard = || Ruleset::default().set_compatibility(CompatLevel::HardRequirement);
    let scope = hard().scope(Scope::Signal).and_then(|r| r.create()).is_ok();
    let net = hard()
        .handle_access(AccessNet::ConnectTcp)
        .and_then(|r| r.create())
        .is_ok();
    let fs = hard()
        .handle_access(AccessFs::Execute)
        .and_then(|r| r.create())
        .is_ok();
    match (fs, net, scope) {
        (_, _, true) => 6,
        (_, true, false) => 4,
        (true, false, false) => 1,
        _ => 0,
    }
}

const NAMESPACES: CloneFlags = CloneFlags::CLONE_NEWUSER
    .union(CloneFlags::CLONE_NEWNS)
    .union(CloneFlags::CLONE_NEWPID)
    .union(CloneFlags::CLONE_NEWNET)
    .union(CloneFlags::CLONE_NEWIPC)
    .union(CloneFlags::CLONE_NEWUTS);

/// Enters new namespaces, mapping the caller's user and group to themselves.
fn enter_namespaces() -> Result<(), String> {
    let (uid, gid) = (getuid(), getgid());
    unshare(NAMESPACES).map_err(|e| format!("unshare: {e}"))?;
    let write = |file: &str, text: String| {
        std::fs::write(format!("/proc/self/{file}"), text).map_err(|e| format!("{file}: {e}"))
    };
    write("setgroups", "deny".into())?;
    write("uid_map", format!("{uid} {uid} 1\n"))?;
    write("gid_map", format!("{gid} {gid} 1\n"))?;
    Ok(())
}

fn me() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|e| fail(&format!("cannot find the launcher: {e}")))
}

fn probe() -> ! {
    let landlock_abi = landlock_abi();
    let root = getuid().is_root();
    let namespaces = enter_namespaces().and_then(|()| {
        let out = Command::new(me())
            .args([LAUNCHER_ARG, "probe-init"])
            .env_clear()
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
    };
    println!("{}", serde_json::to_string(&support).expect("serializes"));
    std::process::exit(0)
}

fn probe_init() -> ! {
    let scratch = std::env::temp_dir();
    let result = private_mounts().and_then(|()| {
        mount_proc()?;
        mount_scratch(&scratch, 1)
    });
    match result {
        Ok(()) => std::process::exit(0),
        Err(e) => fail(&e),
    }
}

fn private_mounts() -> Result<(), String> {
    mount::<str, str, str, str>(None, "/", None, MsFlags::MS_REC | MsFlags::MS_PRIVATE, None)
        .map_err(|e| format!("making mounts private: {e}"))
}

fn mount_proc() -> Result<(), String> {
    mount::<str, str, str, str>(
        Some("proc"),
        "/proc",
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None,
    )
    .map_err(|e| format!("mounting a private /proc: {e}"))
}

fn mount_scratch(at: &Path, mib: u64) -> Result<(), String> {
    mount::<str, Path, str, str>(
        Some("tmpfs"),
        at,
        Some("tmpfs"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
        Some(&format!("size={mib}m,mode=0700")),
    )
    .map_err(|e| format!("mounting the scratch folder {}: {e}", at.display()))
}

fn set_limits(spec: &Spec) -> Result<(), String> {
    let l = &spec.limits;
    let mib = 1u64 << 20;
    let set = |r: Resource, soft: u64, hard: u64| {
        setrlimit(r, soft, hard).map_err(|e| format!("setting {r:?} to {soft}: {e}"))
    };
    set(
        Resource::RLIMIT_DATA,
        l.memory_mib * mib,
        l.memory_mib * mib,
    )?;
    set(Resource::RLIMIT_NPROC, l.processes, l.processes)?;
    // SIGXCPU at the limit, SIGKILL a second later if it is caught.
    set(Resource::RLIMIT_CPU, l.cpu_s, l.cpu_s + 1)?;
    set(Resource::RLIMIT_FSIZE, l.file_mib * mib, l.file_mib * mib)?;
    set(Resource::RLIMIT_NOFILE, l.open_files, l.open_files)?;
    set(Resource::RLIMIT_CORE, 0, 0)?;
    Ok(())
}

/// Applies the Landlock ruleset to this process (and so to everything it
/// starts): read and run `read` paths, write only the scratch folder and a
/// few device files, no TCP but to `port`, signals and abstract sockets
/// only inside.
fn restrict(spec: &Spec, proc_readable: bool, hard: bool) -> Result<(), String> {
    let e =
        |what: &'static str| move |err: landlock::RulesetError| format!("Landlock ({what}): {err}");
    let abi = ABI_USED;
    let mut read: Vec<PathBuf> = system_paths();
    read.push(spec.dir.clone());
    read.extend(spec.read.iter().cloned());
    if spec.program.is_absolute() {
        read.push(spec.program.clone());
    }
    if proc_readable {
        read.push("/proc".into());
    }
    read.retain(|p| p.exists());
    let devices: Vec<PathBuf> = ["/dev/null", "/dev/zero", "/dev/full", "/dev/tty"]
        .into_iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
    let level = if hard {
        CompatLevel::HardRequirement
    } else {
        CompatLevel::BestEffort
    };
    let ruleset = Ruleset::default()
        .set_compatibility(level)
        .handle_access(AccessFs::from_all(ABI::V1))
        .map_err(e("file rights"))?
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))
        .map_err(e("file rights"))?
        .set_compatibility(level)
        .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
        .map_err(e("network"))?
        .scope(Scope::Signal | Scope::AbstractUnixSocket)
        .map_err(e("scopes"))?;
    let mut created = ruleset
        .create()
        .map_err(e("create"))?
        .add_rules(path_beneath_rules(&read, AccessFs::from_read(abi)))
        .map_err(e("read paths"))?
        .add_rules(path_beneath_rules([&spec.scratch], AccessFs::from_all(abi)))
        .map_err(e("scratch"))?
        .add_rules(path_beneath_rules(
            &devices,
            AccessFs::from_read(abi) | AccessFs::WriteFile,
        ))
        .map_err(e("devices"))?;
    if let Some(port) = spec.referee_port {
        created = created
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(e("referee port"))?;
    }
    let status = created.restrict_self().map_err(e("restrict"))?;
    match status.ruleset {
        RulesetStatus::NotEnforced => Err("Landlock is not enforced by this kernel".into()),
        RulesetStatus::PartiallyEnforced if hard => {
            Err("Landlock is only partly enforced by this kernel".into())
        }
        _ => Ok(()),
    }
}

fn bot_command(spec: &Spec) -> Command {
    let mut cmd = Command::new(&spec.program);
    cmd.args(&spec.args)
        .current_dir(&spec.dir)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)));
    cmd
}

fn run() -> ! {
    let spec = spec();
    match spec.mode {
        Mode::Namespaces => {
            if let Err(e) = enter_namespaces() {
                fail(&format!("cannot enter the namespaces: {e}"));
            }
            // The first process started now is PID 1 of the new namespace.
            let mut init = Command::new(me())
                .args([LAUNCHER_ARG, "init"])
                .env_clear()
                .env(SPEC_VAR, std::env::var(SPEC_VAR).unwrap_or_default())
                .spawn()
                .unwrap_or_else(|e| fail(&format!("cannot start the sandbox's init: {e}")));
            release_stdio();
            let status = init
                .wait()
                .unwrap_or_else(|e| fail(&format!("cannot wait for the sandbox's init: {e}")));
            let code = status
                .code()
                .unwrap_or_else(|| 128 + status.signal().unwrap_or(0));
            std::process::exit(code)
        }
        Mode::Landlock => {
            if let Err(e) = set_limits(&spec)
                .and_then(|()| restrict(&spec, false, true))
                .and_then(|()| crate::filter::install(&spec))
            {
                fail(&e);
            }
            let err = bot_command(&spec).exec();
            fail(&format!("cannot start {}: {err}", spec.program.display()))
        }
    }
}

/// How many processes this PID namespace holds besides this one.
fn processes() -> u64 {
    std::fs::read_dir("/proc").map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n != "1" && n.bytes().all(|b| b.is_ascii_digit()))
            })
            .count() as u64
    })
}

/// The processes of this PID namespace but this one (from the namespace's
/// own `/proc`), with their threads, and their resident memory in bytes.
fn usage() -> (u64, u64) {
    let page = 4096u64;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return (0, 0);
    };
    let (mut tasks, mut pages) = (0u64, 0u64);
    for pid in entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != 1)
    {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        tasks += field("Threads:").unwrap_or(1);
        // VmRSS in KiB.
        pages += field("VmRSS:").unwrap_or(0) * 1024 / page;
    }
    (tasks, pages * page)
}

fn cpu_seconds_of_children() -> u64 {
    getrusage(UsageWho::RUSAGE_CHILDREN)
        .map(|u| (u.user_time().tv_sec() + u.system_time().tv_sec()) as u64)
        .unwrap_or(0)
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

fn init() -> ! {
    // Ends with its launcher (the runner kills the launcher's group).
    let _ = nix::sys::prctl::set_pdeathsig(Signal::SIGKILL);
    let spec = spec();
    if let Err(e) =
        private_mounts().and_then(|()| mount_scratch(&spec.scratch, spec.limits.scratch_mib))
    {
        fail(&e);
    }
    let proc_ok = mount_proc().is_ok();
    // A hard bound on the tasks of this PID namespace (Linux 6.14 and later
    // keep `pid_max` per namespace; 301 is its least value): the kernel
    // exempts root from RLIMIT_NPROC, and a fork bomb outruns any watchdog.
    if proc_ok {
        let bound = (spec.limits.processes + 2).max(301);
        let _ = std::fs::write("/proc/sys/kernel/pid_max", bound.to_string());
    }
    if let Err(e) = set_limits(&spec)
        .and_then(|()| restrict(&spec, proc_ok, false))
        .and_then(|()| crate::filter::install(&spec))
    {
        fail(&e);
    }
    let bot = match bot_command(&spec).spawn() {
        Ok(c) => Pid::from_raw(c.id() as i32),
        Err(e) => fail(&format!("cannot start {}: {e}", spec.program.display())),
    };
    release_stdio();
    let limit = spec.limits.memory_mib << 20;
    let mut polls = 0u64;
    loop {
        match waitpid(Pid::from_raw(-1), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) => {
                polls += 1;
                // Processes are counted every 5 ms (a directory listing);
                // threads and memory every 50 ms (each process's status).
                let quick = proc_ok.then(processes).unwrap_or(0);
                let (tasks, rss) = if proc_ok && (polls % 10 == 0 || quick > spec.limits.processes)
                {
                    usage()
                } else {
                    (quick, 0)
                };
                if tasks > spec.limits.processes {
                    let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
                    eprintln!(
                        "whistle sandbox: process limit {}: the bot held {tasks} processes \
                         and threads and was stopped",
                        spec.limits.processes
                    );
                    std::process::exit(EXIT_PROCESSES);
                }
                if rss > limit {
                    let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
                    eprintln!(
                        "whistle sandbox: memory limit {} MiB: the bot's processes held {} MiB \
                         and were stopped",
                        spec.limits.memory_mib,
                        rss >> 20
                    );
                    std::process::exit(EXIT_MEMORY);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(WaitStatus::Exited(pid, _) | WaitStatus::Signaled(pid, _, _))
                if pid == bot && proc_ok && usage().0 > spec.limits.processes =>
            {
                // The bot ended while its descendants held more tasks than
                // allowed (a fork bomb that hit the namespace's bound first).
                eprintln!(
                    "whistle sandbox: process limit {}: the bot's processes ran out of room \
                     and were stopped",
                    spec.limits.processes
                );
                std::process::exit(EXIT_PROCESSES);
            }
            Ok(WaitStatus::Exited(pid, code)) if pid == bot => {
                std::process::exit(code.min(EXIT_BOT_MAX));
            }
            Ok(WaitStatus::Signaled(pid, sig, _)) if pid == bot => {
                let code = match sig {
                    Signal::SIGXCPU => EXIT_CPU,
                    Signal::SIGKILL if cpu_seconds_of_children() >= spec.limits.cpu_s => EXIT_CPU,
                    Signal::SIGXFSZ => EXIT_FILE_SIZE,
                    other => 128 + other as i32,
                };
                match code {
                    EXIT_CPU => eprintln!(
                        "whistle sandbox: CPU time limit {} s: the bot was stopped",
                        spec.limits.cpu_s
                    ),
                    EXIT_FILE_SIZE => eprintln!(
                        "whistle sandbox: file size limit {} MiB: the bot was stopped",
                        spec.limits.file_mib
                    ),
                    _ => {}
                }
                std::process::exit(code);
            }
            // An orphan of the bot's, reaped; the bot goes on.
            Ok(_) => {}
            Err(_) => std::process::exit(EXIT_SETUP),
        }
    }
}
