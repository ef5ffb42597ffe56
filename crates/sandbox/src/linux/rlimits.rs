//! Stage: the resource limits of each of the bot's processes (`setrlimit`),
//! set by the bot's own process before it becomes the bot.

use nix::sys::resource::{Resource, setrlimit};

use crate::Spec;

/// Sets the per-process limits of [`crate::Limits`]. `RLIMIT_NPROC` counts
/// all the tasks of the bot's user (in its user namespace): `tasks_before`
/// is how many it has outside the sandbox (0 in a user namespace of the
/// bot's own; with Landlock alone, the user's tasks when the sandbox
/// started), `None` where a cgroup bounds the sandbox's tasks instead.
pub(crate) fn set(spec: &Spec, tasks_before: Option<u64>) -> Result<(), String> {
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
    if let Some(before) = tasks_before {
        let n = before + l.processes;
        set(Resource::RLIMIT_NPROC, n, n)?;
    }
    // SIGXCPU at the limit, SIGKILL a second later if it is caught.
    set(Resource::RLIMIT_CPU, l.cpu_s, l.cpu_s + 1)?;
    set(Resource::RLIMIT_FSIZE, l.file_mib * mib, l.file_mib * mib)?;
    set(Resource::RLIMIT_NOFILE, l.open_files, l.open_files)?;
    set(Resource::RLIMIT_CORE, 0, 0)?;
    // No locked memory: the machine's count of it (`nr_mlock`) passed a
    // hand between two bots alive at once (the filter refuses `mlock` too).
    set(Resource::RLIMIT_MEMLOCK, 0, 0)?;
    Ok(())
}
