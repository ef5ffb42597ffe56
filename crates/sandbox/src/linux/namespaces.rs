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
//!
//! Run as root, the launcher may also be handed the network namespace of a
//! sandbox that ended ([`crate::NETNS_VAR`]) and enter it rather than make
//! one ([`join_network`]): making a network namespace and tearing it down
//! cost more than the rest of the namespaces together. An ended sandbox's
//! network namespace carries nothing from one sandbox to the next once it
//! holds no socket (docs/fair-play.md, "One network namespace after
//! another"): no process of the old sandbox is left in it (whistle hands
//! over only the namespaces of sandboxes that are gone, its `procs`), the
//! bot had no capability in it (its uid is not root, and the namespace
//! belongs to the machine's user namespace), so it could change none of its
//! interfaces (the loopback stays down), addresses, routes, firewall or
//! sysctls, and the filter gave it no socket but Unix ones: what a Unix
//! socket leaves, a bound abstract name, lives exactly as long as the
//! socket. The launcher checks that the namespace holds no socket at all
//! (its `sockstat`) before it keeps it: a socket can outlive its
//! processes, in flight in a message to the referee that was never read, or
//! in a cycle of messages the kernel has not collected yet, and then its
//! name would still be taken. A namespace that holds one is left, and a
//! fresh one made as before.

use std::{io::Read, os::unix::fs::MetadataExt, path::Path};

use nix::{
    sched::{CloneFlags, setns, unshare},
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
/// [`enter_mounts`]). `network`: an ended sandbox's network namespace to
/// enter rather than make one, where it may be ([`join_network`]).
pub(crate) fn enter(network: Option<&Path>) -> Result<(), String> {
    if getuid().is_root() {
        return enter_as_root(NAMESPACES, network);
    }
    let (uid, gid) = (getuid(), getgid());
    unshare(NAMESPACES | CloneFlags::CLONE_NEWUSER).map_err(|e| format!("unshare: {e}"))?;
    write_map("setgroups", "deny")?;
    write_map("uid_map", &format!("0 {uid} 1\n"))?;
    write_map("gid_map", &format!("0 {gid} 1\n"))?;
    Ok(())
}

/// Run as root: enters the namespaces of `flags`, the network namespace at
/// `network` where it may be ([`join_network`]) rather than a fresh one.
fn enter_as_root(flags: CloneFlags, network: Option<&Path>) -> Result<(), String> {
    let flags = if network.is_some_and(join_network) {
        flags.difference(CloneFlags::CLONE_NEWNET)
    } else {
        flags
    };
    unshare(flags).map_err(|e| format!("unshare: {e}"))
}

/// Run as root by the launcher that is PID 1 of its sandbox's PID namespace
/// already ([`in_own_pid_namespace`]): enters the sandbox's other
/// namespaces as [`enter`] does (the mount namespace is entered with the
/// private root, [`enter_mounts`]).
pub(crate) fn enter_as_init(network: Option<&Path>) -> Result<(), String> {
    enter_as_root(NAMESPACES.difference(CloneFlags::CLONE_NEWPID), network)
}

/// Runs `start`, which starts one process (a sandbox's launcher), with the
/// processes this thread starts put in a new PID namespace (PID 1 of it),
/// then puts the thread back: where the caller is root and may make one
/// (`CAP_SYS_ADMIN`); else `start` runs as it is. A thread's namespace for
/// the processes it starts is its own, so the caller's other threads are
/// not affected. A launcher started so is its sandbox's init too
/// ([`super::run_as_init`]).
pub(crate) fn in_own_pid_namespace<T>(start: impl FnOnce() -> T) -> T {
    if !getuid().is_root() {
        return start();
    }
    let Ok(own) = std::fs::File::open("/proc/thread-self/ns/pid") else {
        return start();
    };
    if unshare(CloneFlags::CLONE_NEWPID).is_err() {
        return start();
    }
    let out = start();
    if let Err(e) = setns(&own, CloneFlags::CLONE_NEWPID) {
        // Every process this thread started from now on would start in the
        // sandbox's namespace: nothing may go on.
        eprintln!("whistle sandbox: cannot leave a sandbox's PID namespace: {e}");
        std::process::abort();
    }
    out
}

/// Enters the network namespace at `path` (run as root: an ended sandbox's,
/// held open by whistle) when it may carry nothing from its last sandbox to
/// the next (the module's documentation says why): it is not the
/// launcher's own and holds no socket. Whether this process is in it now
/// (else it stays where it was or in a namespace about to be replaced: the
/// caller makes a fresh one).
fn join_network(path: &Path) -> bool {
    let (Ok(ns), Ok(own)) = (
        std::fs::File::open(path),
        std::fs::metadata("/proc/thread-self/ns/net"),
    ) else {
        return false;
    };
    let Ok(theirs) = ns.metadata() else {
        return false;
    };
    if (theirs.dev(), theirs.ino()) == (own.dev(), own.ino()) {
        return false;
    }
    setns(&ns, CloneFlags::CLONE_NEWNET).is_ok() && holds_no_socket()
}

/// Whether the network namespace of this thread holds no socket: its
/// `sockstat` counts every socket of the namespace, of every family,
/// until the kernel frees it (one only in flight in a message included).
fn holds_no_socket() -> bool {
    let mut text = String::new();
    let read = std::fs::File::open("/proc/thread-self/net/sockstat")
        .and_then(|mut f| f.read_to_string(&mut text));
    read.is_ok()
        && text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("sockets: used "))
            .is_some_and(|n| n.trim() == "0")
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

/// Makes the calling thread (of the sandbox's init, run as root, about to
/// start the bot) the bot's user `ids`, with no supplementary group: the
/// kernel's calls, which change the calling thread alone (the C library's
/// change every thread of the process). The thread keeps no capability.
pub(crate) fn become_bot_thread((u, g): (u32, u32)) -> Result<(), String> {
    use rustix::thread::{set_thread_groups, set_thread_res_gid, set_thread_res_uid};
    let (u, g) = (
        rustix::process::Uid::from_raw(u),
        rustix::process::Gid::from_raw(g),
    );
    set_thread_groups(&[]).map_err(|e| format!("setgroups: {e}"))?;
    set_thread_res_gid(g, g, g).map_err(|e| format!("setresgid: {e}"))?;
    set_thread_res_uid(u, u, u).map_err(|e| format!("setresuid: {e}"))
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
