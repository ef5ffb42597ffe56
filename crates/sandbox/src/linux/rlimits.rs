//! Stage: the resource limits of each of the bot's processes (`setrlimit`),
//! set by the bot's own process before it becomes the bot.

use nix::sys::resource::{Resource, setrlimit};

use crate::Spec;

/// Sets the per-process limits of [`crate::Limits`].
pub(crate) fn set(spec: &Spec) -> Result<(), String> {
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
