//! Stage: the namespaces of a sandbox and the user its bot runs as.
//!
//! Run as an ordinary user, the launcher enters new user, PID, network, IPC
//! and UTS namespaces, mapping root inside to the user (so the sandbox's
//! init may make a mount namespace of its own and mount its private root
//! there), and the bot's own process
//! enters a second user namespace inside it that maps the user's own uid to
//! that root: the bot runs as the user's uid, with no capability at all
//! over the sandbox's mounts, PID namespace or init.
//!
//! Run as root, the launcher enters the same namespaces but the user
//! namespace (init needs none to mount), and the bot's process becomes an
//! unprivileged user of its own, [`BOT_IDS`] plus the launcher's pid (no
//! other process on the machine has it): the bot is never root.

use nix::{
    sched::{CloneFlags, unshare},
    unistd::{Gid, Pid, Uid, getgid, getuid, setgroups, setresgid, setresuid},
};

/// The first uid and gid of the bots of a launcher run as root (one each,
/// this plus the launcher's pid: above any account's and the usual
/// subordinate ranges).
pub(crate) const BOT_IDS: u32 = 1_500_000_000;

/// The launcher's: the mount namespace is init's own (its `pivot_root`
/// must not move the launcher's root).
const NAMESPACES: CloneFlags = CloneFlags::CLONE_NEWPID
    .union(CloneFlags::CLONE_NEWNET)
    .union(CloneFlags::CLONE_NEWIPC)
    .union(CloneFlags::CLONE_NEWUTS);

fn write_map(file: &str, text: &str) -> Result<(), String> {
    std::fs::write(format!("/proc/self/{file}"), text).map_err(|e| format!("{file}: {e}"))
}

/// Enters the sandbox's namespaces (the PID namespace for the processes
/// started from now on; the mount namespace is entered by init,
/// [`enter_mounts`]).
pub(crate) fn enter() -> Result<(), String> {
    if getuid().is_root() {
        return unshare(NAMESPACES).map_err(|e| format!("unshare: {e}"));
    }
    let (uid, gid) = (getuid(), getgid());
    unshare(NAMESPACES | CloneFlags::CLONE_NEWUSER).map_err(|e| format!("unshare: {e}"))?;
    write_map("setgroups", "deny")?;
    write_map("uid_map", &format!("0 {uid} 1\n"))?;
    write_map("gid_map", &format!("0 {gid} 1\n"))?;
    Ok(())
}

/// Enters a mount namespace of this process's own (the sandbox's init,
/// before it builds the private root).
pub(crate) fn enter_mounts() -> Result<(), String> {
    unshare(CloneFlags::CLONE_NEWNS).map_err(|e| format!("unshare (mounts): {e}"))
}

/// The uid and gid of the bot of the launcher `launcher` run as root.
pub(crate) fn bot_ids(launcher: Pid) -> (u32, u32) {
    let id = BOT_IDS + launcher.as_raw().unsigned_abs();
    (id, id)
}

/// Makes this process (in the sandbox, about to become the bot) its bot's
/// user: `ids` (run as root), else a nested user namespace in which it is
/// the outer user's own uid. Either way it keeps no capability once it runs
/// the bot.
pub(crate) fn become_bot(ids: Option<(u32, u32)>, outer: (u32, u32)) -> Result<(), String> {
    match ids {
        Some((u, g)) => {
            let (u, g) = (Uid::from_raw(u), Gid::from_raw(g));
            setgroups(&[g]).map_err(|e| format!("setgroups: {e}"))?;
            setresgid(g, g, g).map_err(|e| format!("setresgid: {e}"))?;
            setresuid(u, u, u).map_err(|e| format!("setresuid: {e}"))?;
        }
        None => {
            unshare(CloneFlags::CLONE_NEWUSER).map_err(|e| format!("unshare: {e}"))?;
            write_map("setgroups", "deny")?;
            write_map("uid_map", &format!("{} 0 1\n", outer.0))?;
            write_map("gid_map", &format!("{} 0 1\n", outer.1))?;
        }
    }
    Ok(())
}
