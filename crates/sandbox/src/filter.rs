//! The system-call filter of a sandboxed bot (seccomp, built with
//! `seccompiler`): the kernel objects through which a bot could pass
//! information to another bot, hold memory no limit counts, or reach
//! beyond its sandbox, refused to the bot and everything it starts.
//!
//! It is a list of refusals, each with the error a runtime expects from a
//! kernel or a system that lacks the call, so that runtimes fall back:
//!
//! - `EPERM`, "not permitted", for what a bot never needs: file-lock
//!   queries and leases, inotify/fanotify, SysV and POSIX IPC, keyrings,
//!   tracing and other processes' memory, `perf_event_open`, `bpf`,
//!   `userfaultfd`, mounts and namespaces, modules, `kexec`, the kernel log,
//!   typing into a terminal (`TIOCSTI`), other processes' limits,
//!   priorities and CPUs, sockets but the one the bot needs ([`sockets`]),
//!   listening, TCP Fast Open (it connects out of Landlock's sight);
//! - `ENOSYS`, "no such call", where C libraries and runtimes test for a
//!   newer call and fall back to an older one only on `ENOSYS`: `clone3`
//!   (glibc then uses `clone`, whose flags the filter can read), `io_uring`
//!   (libuv then uses threads; its operations would bypass this filter),
//!   `memfd_create` and `memfd_secret` (memory no limit counts);
//! - success without effect for *taking* a file lock (`flock`, `F_SETLK`,
//!   `F_SETLKW`, `F_OFD_SETLK`, `F_OFD_SETLKW`): a lock is seen by every
//!   process that opens the file, so a lock on a file two bots can read
//!   (their program, `/etc/passwd`, `/dev/null`) would pass bits between
//!   them; taking one succeeds and places nothing, so nothing is ever locked,
//!   and runtimes and libraries that lock their own files (SQLite, `dbm`)
//!   work as in one process; asking whether a file is locked (`F_GETLK`,
//!   `F_OFD_GETLK`) is refused;
//! - success without effect, too, for advice that would drop pages of the
//!   page cache (`fadvise64`, `madvise` `MADV_COLD` and `MADV_PAGEOUT`), and
//!   `ENOSYS` for asking what is cached (`mincore`, `cachestat`): fresh
//!   instances of one bot passed their hands through which pages of a file
//!   of their folder were cached, one evicting and the next timing its
//!   reads; locking memory (`mlock`, `mlock2`, `mlockall`) is refused, as
//!   its count is the machine's.
//!
//! The filter is installed with `no_new_privs` at the last step before the
//! bot starts (by the sandbox's init in [`Mode::Namespaces`], by the
//! launcher before it execs the bot under Landlock alone) and is inherited
//! across `fork` and `execve`: no process of the bot runs without it.
//!
//! On x86-64 the same calls are refused by their x32 numbers, which share
//! the architecture's audit value (a kernel with x32 enabled would otherwise
//! run them unfiltered); a call of another architecture (32-bit `int 0x80`)
//! ends the process (`seccompiler`'s architecture check), so 32-bit
//! programs cannot run as bots.
//!
//! The bot keeps the session keyring it inherits: with every key call
//! refused it can reach neither that nor the user keyring (a new session
//! keyring would have hidden only the first).

use std::collections::BTreeMap;

use nix::libc;
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen as Len, SeccompCmpOp as Op, SeccompCondition,
    SeccompFilter, SeccompRule, TargetArch, sock_filter,
};

use crate::{Mode, Spec};

/// How a refused call answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Answer {
    /// `EPERM`: not permitted here.
    Refused,
    /// `ENOSYS`: as on a kernel without the call (callers fall back).
    Missing,
    /// Returns 0 without doing anything (taking a lock, dropping cached
    /// pages).
    Pretend,
}

impl Answer {
    fn action(self) -> SeccompAction {
        match self {
            Answer::Refused => SeccompAction::Errno(libc::EPERM as u32),
            Answer::Missing => SeccompAction::Errno(libc::ENOSYS as u32),
            Answer::Pretend => SeccompAction::Errno(0),
        }
    }
}

/// One refusal: a call, when its arguments match one of `when` (all of a
/// rule's conditions; an empty list: always), answered by `answer`.
struct Refusal {
    call: i64,
    when: Vec<SeccompRule>,
    answer: Answer,
}

fn cond(arg: u8, len: Len, op: Op, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, len, op, value).map_err(|e| format!("seccomp condition: {e}"))
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, String> {
    SeccompRule::new(conditions).map_err(|e| format!("seccomp rule: {e}"))
}

/// Rules matching `arg` equal to any of `values` (a 32-bit argument).
fn any_of(arg: u8, values: &[u64]) -> Result<Vec<SeccompRule>, String> {
    values
        .iter()
        .map(|&v| rule(vec![cond(arg, Len::Dword, Op::Eq, v)?]))
        .collect()
}

/// Rules matching `arg` (a 64-bit set of flags) with any bit of `bits`.
fn any_bit(arg: u8, bits: &[u64]) -> Result<Vec<SeccompRule>, String> {
    bits.iter()
        .map(|&b| rule(vec![cond(arg, Len::Qword, Op::MaskedEq(b), b)?]))
        .collect()
}

/// The kind of socket (`type & SOCK_TYPE_MASK`, 0xf) is anything but a
/// stream (1): its lowest bit is clear, or any of the three above it set.
fn not_stream(arg: u8) -> Result<Vec<SeccompRule>, String> {
    const _: () = assert!(libc::SOCK_STREAM == 1);
    let mut rules = vec![rule(vec![cond(arg, Len::Dword, Op::MaskedEq(1), 0)?])?];
    for bit in [2, 4, 8] {
        rules.push(rule(vec![cond(arg, Len::Dword, Op::MaskedEq(bit), bit)?])?);
    }
    Ok(rules)
}

/// The namespace flags of `clone` and `unshare` (`CLONE_NEWTIME` shares its
/// bit with `clone`'s exit signal, so it is checked for `unshare` only).
const NAMESPACE_FLAGS: [u64; 7] = [
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
];
const CLONE_NEWTIME: u64 = 0x80;
/// `madvise` advice that ages pages (`MADV_COLD`) or pages them out
/// (`MADV_PAGEOUT`), the same numbers on every architecture.
const MADV_COLD: u64 = 20;
const MADV_PAGEOUT: u64 = 21;
/// `cachestat` (Linux 6.5), the same number on every architecture.
const SYS_CACHESTAT: i64 = 451;

/// What the socket rule of a bot is: which sockets it may open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sockets {
    /// Unix stream sockets (a gRPC bot in namespaces: the referee's socket).
    UnixStream,
    /// TCP over IPv4 and IPv6 (a gRPC bot under Landlock alone, which may
    /// connect to the referee's port only).
    Tcp,
    /// None (a stdio bot).
    None,
}

/// The socket rule of `spec`'s bot. Every bot may make a connected pair of
/// Unix sockets (`socketpair`: runtimes use them for their own child
/// processes; a pair reaches nothing but itself).
pub(crate) fn sockets(spec: &Spec) -> Sockets {
    match (spec.stdio, spec.mode) {
        (true, _) => Sockets::None,
        (false, Mode::Namespaces) => Sockets::UnixStream,
        (false, Mode::Landlock) => Sockets::Tcp,
    }
}

/// Every refusal for `spec`'s bot, by native call number.
fn refusals(spec: &Spec) -> Result<Vec<Refusal>, String> {
    use Answer::*;
    let mut out = Vec::new();
    let mut add = |call: i64, when: Vec<SeccompRule>, answer: Answer| {
        out.push(Refusal { call, when, answer });
    };
    let always = Vec::new;

    // File locks: taking one places nothing; asking is refused; leases and
    // directory notifications (F_NOTIFY) are refused.
    add(libc::SYS_flock, always(), Pretend);
    let setlk = [
        libc::F_SETLK,
        libc::F_SETLKW,
        libc::F_OFD_SETLK,
        libc::F_OFD_SETLKW,
    ];
    add(
        libc::SYS_fcntl,
        any_of(1, &setlk.map(|c| c as u64))?,
        Pretend,
    );
    let asked = [
        libc::F_GETLK,
        libc::F_OFD_GETLK,
        libc::F_SETLEASE,
        libc::F_GETLEASE,
        libc::F_NOTIFY,
    ];
    add(
        libc::SYS_fcntl,
        any_of(1, &asked.map(|c| c as u64))?,
        Refused,
    );

    // Typing into the organiser's terminal (a bot whose session has one
    // may open /dev/tty) and the console's own commands.
    // (The type of an ioctl number differs between C libraries.)
    #[allow(clippy::unnecessary_cast)]
    let typing = [libc::TIOCSTI as u64, libc::TIOCLINUX as u64];
    add(libc::SYS_ioctl, any_of(1, &typing)?, Refused);

    // Other processes' limits, priorities and CPUs: under Landlock alone
    // the bot's user is the organiser's, and these calls reach every
    // process of that user (another bot, whistle itself) by its PID. The
    // bot may change its own (PID 0, the C library's way).
    let other = |arg: u8| -> Result<Vec<SeccompRule>, String> {
        Ok(vec![rule(vec![cond(arg, Len::Dword, Op::Ne, 0)?])?])
    };
    for call in [
        libc::SYS_prlimit64,
        libc::SYS_sched_setaffinity,
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setparam,
        libc::SYS_sched_setattr,
    ] {
        add(call, other(0)?, Refused);
    }
    // setpriority and ioprio_set: a process (PRIO_PROCESS 0,
    // IOPRIO_WHO_PROCESS 1) and only itself; not a group, not a user.
    let mut priority = other(1)?;
    priority.push(rule(vec![cond(0, Len::Dword, Op::Ne, 0)?])?);
    add(libc::SYS_setpriority, priority, Refused);
    let mut io_priority = other(1)?;
    io_priority.push(rule(vec![cond(0, Len::Dword, Op::Ne, 1)?])?);
    add(libc::SYS_ioprio_set, io_priority, Refused);

    // The page cache: what one instance of a bot leaves cached in a file
    // (its own folder's, a system library's) the next instance finds by
    // timing its reads. Evicting is advice the bot may not give: dropping
    // pages (`posix_fadvise` `DONTNEED`, `NOREUSE`) succeeds and drops
    // nothing, and so does asking for pages of its mappings to be paged out
    // or aged (`MADV_PAGEOUT`, `MADV_COLD`; the kernel allows them, like
    // `mincore` and `cachestat`, on files the bot owns, which a bot run by
    // an ordinary user does: its folder is that user's). Asking what is
    // cached (`mincore`, `cachestat`) is refused as on a kernel without the
    // calls.
    add(libc::SYS_fadvise64, always(), Pretend);
    add(
        libc::SYS_madvise,
        any_of(2, &[MADV_COLD, MADV_PAGEOUT])?,
        Pretend,
    );
    add(libc::SYS_mincore, always(), Missing);
    add(SYS_CACHESTAT, always(), Missing);

    let refused_always: &[i64] = &[
        // Locking memory: `nr_mlock` and `Mlocked`, counts of the whole
        // machine, carried a hand between two bots alive at once (the
        // bot's `RLIMIT_MEMLOCK` is 0 too).
        libc::SYS_mlock,
        libc::SYS_mlock2,
        libc::SYS_mlockall,
        // Watching files and folders (names of files it cannot read).
        libc::SYS_inotify_init1,
        libc::SYS_inotify_add_watch,
        libc::SYS_fanotify_init,
        libc::SYS_fanotify_mark,
        // SysV IPC (shared between sandboxes without an IPC namespace, and
        // outliving them) and POSIX message queues.
        libc::SYS_shmget,
        libc::SYS_shmat,
        libc::SYS_shmdt,
        libc::SYS_shmctl,
        libc::SYS_semget,
        libc::SYS_semop,
        libc::SYS_semtimedop,
        libc::SYS_semctl,
        libc::SYS_msgget,
        libc::SYS_msgsnd,
        libc::SYS_msgrcv,
        libc::SYS_msgctl,
        libc::SYS_mq_open,
        libc::SYS_mq_unlink,
        libc::SYS_mq_timedsend,
        libc::SYS_mq_timedreceive,
        libc::SYS_mq_notify,
        libc::SYS_mq_getsetattr,
        // Keyrings (the organiser's session and user keyrings).
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        // Other processes: tracing, their memory, their files.
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_process_madvise,
        libc::SYS_pidfd_getfd,
        libc::SYS_kcmp,
        libc::SYS_move_pages,
        libc::SYS_migrate_pages,
        // The machine's task count, load and free memory, which any bot
        // can move at will: a channel between bots.
        libc::SYS_sysinfo,
        // Kernel facilities a bot never needs.
        libc::SYS_perf_event_open,
        libc::SYS_bpf,
        libc::SYS_userfaultfd,
        libc::SYS_syslog,
        libc::SYS_name_to_handle_at,
        libc::SYS_open_by_handle_at,
        libc::SYS_lookup_dcookie,
        // Mounts and namespaces.
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_open_tree,
        libc::SYS_move_mount,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_mount_setattr,
        libc::SYS_setns,
        // The machine: modules, kexec, reboot, swap, accounting, quotas,
        // clocks, names.
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_quotactl_fd,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_vhangup,
        // A client never listens (and under Landlock alone `listen` on an
        // unbound socket would bind a port).
        libc::SYS_listen,
    ];
    for &call in refused_always {
        add(call, always(), Refused);
    }
    #[cfg(target_arch = "x86_64")]
    for call in [
        libc::SYS_inotify_init,
        libc::SYS_uselib,
        libc::SYS_iopl,
        libc::SYS_ioperm,
    ] {
        add(call, always(), Refused);
    }

    // New namespaces.
    add(libc::SYS_clone, any_bit(0, &NAMESPACE_FLAGS)?, Refused);
    let mut unshare_flags = NAMESPACE_FLAGS.to_vec();
    unshare_flags.push(CLONE_NEWTIME);
    add(libc::SYS_unshare, any_bit(0, &unshare_flags)?, Refused);

    // Calls whose absence callers handle.
    for call in [
        libc::SYS_clone3,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_memfd_create,
        libc::SYS_memfd_secret,
    ] {
        add(call, always(), Missing);
    }

    // Sockets: socketpair of Unix sockets only; socket() per the bot.
    add(
        libc::SYS_socketpair,
        vec![rule(vec![cond(
            0,
            Len::Dword,
            Op::Ne,
            libc::AF_UNIX as u64,
        )?])?],
        Refused,
    );
    let socket_refused = match sockets(spec) {
        Sockets::None => always(),
        Sockets::UnixStream => {
            let mut r = vec![rule(vec![cond(
                0,
                Len::Dword,
                Op::Ne,
                libc::AF_UNIX as u64,
            )?])?];
            r.extend(not_stream(1)?);
            r
        }
        Sockets::Tcp => {
            let mut r = vec![
                rule(vec![
                    cond(0, Len::Dword, Op::Ne, libc::AF_INET as u64)?,
                    cond(0, Len::Dword, Op::Ne, libc::AF_INET6 as u64)?,
                ])?,
                // TCP only (not SCTP, MPTCP or another stream protocol).
                rule(vec![
                    cond(2, Len::Dword, Op::Ne, 0)?,
                    cond(2, Len::Dword, Op::Ne, libc::IPPROTO_TCP as u64)?,
                ])?,
            ];
            r.extend(not_stream(1)?);
            r
        }
    };
    add(libc::SYS_socket, socket_refused, Refused);
    if sockets(spec) == Sockets::Tcp {
        // TCP Fast Open: sending with MSG_FASTOPEN connects without
        // connect(2), out of Landlock's sight (a bot reached any port).
        let fastopen = libc::MSG_FASTOPEN as u64;
        let with_fastopen = |arg: u8| {
            rule(vec![cond(
                arg,
                Len::Dword,
                Op::MaskedEq(fastopen),
                fastopen,
            )?])
        };
        add(libc::SYS_sendto, vec![with_fastopen(3)?], Refused);
        add(libc::SYS_sendmsg, vec![with_fastopen(2)?], Refused);
        add(libc::SYS_sendmmsg, vec![with_fastopen(3)?], Refused);
    }
    Ok(out)
}

/// The x32 numbers of the x86-64 calls refused (the x32 bit on the native
/// number, and the x32-only numbers of the calls whose arguments differ).
#[cfg(target_arch = "x86_64")]
fn x32_numbers(call: i64) -> Vec<i64> {
    const X32: i64 = 0x4000_0000;
    let own = match call {
        libc::SYS_ptrace => Some(521),
        libc::SYS_mq_notify => Some(527),
        libc::SYS_kexec_load => Some(528),
        libc::SYS_move_pages => Some(533),
        libc::SYS_process_vm_readv => Some(539),
        libc::SYS_process_vm_writev => Some(540),
        _ => None,
    };
    std::iter::once(X32 | call)
        .chain(own.map(|n| X32 | n))
        .collect()
}

/// One program per kind of answer (a `seccompiler` filter has one action
/// for the calls it matches; no call is matched by two): the filter that
/// [`program`] builds as one is checked against these.
#[cfg(test)]
fn programs(spec: &Spec) -> Result<Vec<BpfProgram>, String> {
    let arch = target_arch()?;
    grouped(spec)?
        .into_iter()
        .map(|(answer, calls)| {
            // Calls refused whatever their arguments take one instruction
            // each (`always`); those refused for some arguments are
            // `seccompiler`'s chains.
            let (always, when): (Vec<_>, Vec<_>) =
                calls.into_iter().partition(|(_, rules)| rules.is_none());
            let when: BTreeMap<i64, Vec<SeccompRule>> = when
                .into_iter()
                .map(|(n, rules)| (n, rules.unwrap_or_default()))
                .collect();
            let always: Vec<i64> = always.into_iter().map(|(n, _)| n).collect();
            let program = SeccompFilter::new(when, SeccompAction::Allow, answer.action(), arch)
                .and_then(BpfProgram::try_from)
                .map_err(|e| format!("building the system-call filter: {e}"))?;
            with_always(program, &always, answer.action())
        })
        .collect()
}

fn target_arch() -> Result<TargetArch, String> {
    TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| format!("no system-call filter for {} ({e})", std::env::consts::ARCH))
}

/// Per answer, per call number: `None` when the call is refused whatever
/// its arguments, else the rules that refuse it.
type Grouped = BTreeMap<Answer, BTreeMap<i64, Option<Vec<SeccompRule>>>>;

/// The refusals of `spec`'s bot by answer and call number (on x86-64 each
/// call by its x32 numbers too).
fn grouped(spec: &Spec) -> Result<Grouped, String> {
    let mut by_answer: Grouped = BTreeMap::new();
    for r in refusals(spec)? {
        #[cfg(target_arch = "x86_64")]
        let numbers = std::iter::once(r.call).chain(x32_numbers(r.call));
        #[cfg(not(target_arch = "x86_64"))]
        let numbers = std::iter::once(r.call);
        let calls = by_answer.entry(r.answer).or_default();
        for n in numbers {
            let entry = calls.entry(n).or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), r.when.is_empty()) {
                (Some(_), true) => *entry = None,
                (Some(rules), false) => rules.extend(r.when.iter().cloned()),
                (None, _) => {}
            }
        }
    }
    Ok(by_answer)
}

/// Classic BPF (linux/bpf_common.h): load a word of `seccomp_data`
/// (`BPF_LD | BPF_W | BPF_ABS`), compare with a constant and jump
/// (`BPF_JMP | BPF_JEQ | BPF_K`), jump (`BPF_JMP | BPF_JA`), return a
/// constant (`BPF_RET | BPF_K`).
const LOAD_WORD: u16 = 0x20;
const JUMP_EQUAL: u16 = 0x15;
const JUMP: u16 = 0x05;
const RETURN: u16 = 0x06;
/// Where `seccomp_data` holds the call's number and the architecture.
const NR_OFFSET: u32 = 0;
const ARCH_OFFSET: u32 = 4;
/// The architecture check `seccompiler` starts a program with (load the
/// architecture, compare, kill): the call's number is loaded after it.
const ARCH_CHECK_LEN: usize = 3;
/// `jge` (`BPF_JMP | BPF_JGE | BPF_K`): jump when the accumulator is at
/// least the constant.
const JUMP_AT_LEAST: u16 = 0x35;
/// At most this many comparisons in a leaf of the search for a call
/// refused whatever its arguments.
const LEAF: usize = 10;

fn op(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// A search of the call's number (loaded) among `sorted` (ascending):
/// halved by one comparison (`jge`) at a time down to [`LEAF`] numbers
/// compared one by one, each leaf with a return of `ret` of its own for a
/// match. What matches none ends at a jump whose index is listed (its
/// target is set by the caller: the instruction after the search).
#[cfg(test)]
fn search(sorted: &[u32], ret: u32) -> (Vec<sock_filter>, Vec<usize>) {
    if sorted.len() <= LEAF {
        let n = sorted.len();
        let mut out: Vec<sock_filter> = sorted
            .iter()
            .enumerate()
            // To the leaf's return, after the other comparisons and the
            // jump out.
            .map(|(i, &call)| op(JUMP_EQUAL, call, (n - i) as u8, 0))
            .collect();
        out.push(op(JUMP, 0, 0, 0));
        out.push(op(RETURN, ret, 0, 0));
        return (out, vec![n]);
    }
    let half = sorted.len() / 2;
    let (low, low_out) = search(&sorted[..half], ret);
    let (high, high_out) = search(&sorted[half..], ret);
    // At least the middle number: on to the jump over the lower half's
    // search; else over that jump, into the lower half's search.
    let mut out = vec![
        op(JUMP_AT_LEAST, sorted[half], 0, 1),
        op(JUMP, low.len() as u32, 0, 0),
    ];
    let mut outs: Vec<usize> = Vec::new();
    let base = out.len();
    outs.extend(low_out.iter().map(|i| i + base));
    out.extend(low);
    let base = out.len();
    outs.extend(high_out.iter().map(|i| i + base));
    out.extend(high);
    (out, outs)
}

/// `program` (`seccompiler`'s: the architecture check, the call's number
/// loaded, the chains of the calls refused for some arguments) with the
/// calls refused whatever their arguments (`always`) answered `action`
/// right after the number is loaded: found by a search ([`search`]) of a
/// few comparisons, rather than a chain of five instructions each or a
/// comparison with each in turn. The kernel runs the filter once per call
/// number when it is installed (its action cache, filled with the
/// sandbox's signal lock held): the fewer instructions a call that is
/// allowed goes through, the sooner every sandbox starts. (The tests'
/// reference now: [`program`] searches every refused call at once.)
#[cfg(test)]
fn with_always(
    mut program: BpfProgram,
    always: &[i64],
    action: SeccompAction,
) -> Result<BpfProgram, String> {
    let load_nr = op(LOAD_WORD, NR_OFFSET, 0, 0);
    let arch_checked = program.len() > ARCH_CHECK_LEN
        && program[0] == op(LOAD_WORD, ARCH_OFFSET, 0, 0)
        && program[1].code == JUMP_EQUAL
        && program[2].code == RETURN;
    if !arch_checked {
        return Err("building the system-call filter: no architecture check".into());
    }
    let mut section = Vec::new();
    // Without chains `seccompiler` loads no number: the section does.
    let loaded = program[ARCH_CHECK_LEN] == load_nr;
    if !loaded && !always.is_empty() {
        section.push(load_nr);
    }
    let mut sorted = always
        .iter()
        .map(|&call| {
            u32::try_from(call)
                .map_err(|_| format!("building the system-call filter: call number {call}"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    sorted.sort_unstable();
    sorted.dedup();
    if !sorted.is_empty() {
        let (mut found, outs) = search(&sorted, u32::from(action));
        let len = found.len();
        for i in outs {
            // To the instruction after the search.
            found[i] = op(JUMP, (len - i - 1) as u32, 0, 0);
        }
        section.extend(found);
    }
    let at = ARCH_CHECK_LEN + usize::from(loaded);
    program.splice(at..at, section);
    Ok(program)
}

/// Where a refused call number leads: an answer whatever the arguments,
/// or its rules (a chain of `seccompiler`'s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lead {
    Answer(Answer),
    Rules,
}

/// A search of the call's number (loaded) among `sorted` (ascending, each
/// with where it leads), halved by one comparison (`jge`) at a time down
/// to [`LEAF`] numbers compared one by one, each leaf ending with its
/// returns: allowed (no number matched), then one per answer its numbers
/// have, then a jump per number that leads to rules (listed with the
/// number: the caller sets their targets).
fn search_all(sorted: &[(u32, Lead)]) -> (Vec<sock_filter>, Vec<(usize, u32)>) {
    if sorted.len() <= LEAF {
        let n = sorted.len();
        let mut ends: Vec<(Lead, u32)> = Vec::new();
        for &(call, lead) in sorted {
            let end = match lead {
                Lead::Answer(a) => (lead, u32::from(a.action())),
                Lead::Rules => (lead, call),
            };
            if !ends.contains(&end) {
                ends.push(end);
            }
        }
        let mut out: Vec<sock_filter> = sorted
            .iter()
            .enumerate()
            .map(|(i, &(call, lead))| {
                let end = match lead {
                    Lead::Answer(a) => (lead, u32::from(a.action())),
                    Lead::Rules => (lead, call),
                };
                let k = ends.iter().position(|e| *e == end).unwrap_or(0);
                // Past the other comparisons and the return of an allowed
                // call, to its end.
                op(JUMP_EQUAL, call, (n - i + k) as u8, 0)
            })
            .collect();
        out.push(op(RETURN, u32::from(SeccompAction::Allow), 0, 0));
        let mut jumps = Vec::new();
        for (lead, k) in ends {
            match lead {
                Lead::Answer(_) => out.push(op(RETURN, k, 0, 0)),
                Lead::Rules => {
                    jumps.push((out.len(), k));
                    out.push(op(JUMP, 0, 0, 0));
                }
            }
        }
        return (out, jumps);
    }
    let half = sorted.len() / 2;
    let (low, low_jumps) = search_all(&sorted[..half]);
    let (high, high_jumps) = search_all(&sorted[half..]);
    // At least the middle number: on to the jump over the lower half's
    // search; else over that jump, into the lower half's search.
    let mut out = vec![
        op(JUMP_AT_LEAST, sorted[half].0, 0, 1),
        op(JUMP, low.len() as u32, 0, 0),
    ];
    let mut jumps: Vec<(usize, u32)> = Vec::new();
    let base = out.len();
    jumps.extend(low_jumps.iter().map(|(i, c)| (i + base, *c)));
    out.extend(low);
    let base = out.len();
    jumps.extend(high_jumps.iter().map(|(i, c)| (i + base, *c)));
    out.extend(high);
    (out, jumps)
}

/// The filter installed: the architecture check, the call's number loaded
/// and searched among every call refused ([`search_all`]): a call not
/// among them is allowed within a few comparisons, one refused whatever
/// its arguments returns its answer, one refused for some arguments jumps
/// to its rules (`seccompiler`'s chain for that call alone, for each
/// answer it has, one after the other; the x32 number of a call shares its
/// native number's). It answers every call as the kernel answers it
/// through one `seccompiler` program per kind of answer (each call is
/// refused by one of them at most). The kernel checks, converts and
/// compiles each filter it is given, and runs it once per call number
/// when it is installed (its action cache, filled with the sandbox's signal
/// lock held): one filter, short, and few instructions for a call it
/// allows, start every sandbox sooner.
fn program(spec: &Spec) -> Result<BpfProgram, String> {
    let arch = target_arch()?;
    let err = |e: seccompiler::BackendError| format!("building the system-call filter: {e}");
    let allow = op(RETURN, u32::from(SeccompAction::Allow), 0, 0);
    // The architecture check (`seccompiler`'s, from an empty filter).
    let empty = SeccompFilter::new(
        BTreeMap::new(),
        SeccompAction::Allow,
        Answer::Refused.action(),
        arch,
    )
    .map_err(err)?;
    let mut out = BpfProgram::try_from(empty).map_err(err)?;
    let checked = out.len() > ARCH_CHECK_LEN
        && out[0] == op(LOAD_WORD, ARCH_OFFSET, 0, 0)
        && out[1].code == JUMP_EQUAL
        && out[2].code == RETURN;
    if !checked {
        return Err("building the system-call filter: no architecture check".into());
    }
    out.truncate(ARCH_CHECK_LEN);
    // Each refused number: where it leads, and its rules by answer (in the
    // order of [`Answer`]), each `seccompiler`'s chain for that number
    // alone without the number's load and comparison (it is entered where
    // the comparison matched).
    let mut leads: BTreeMap<u32, Lead> = BTreeMap::new();
    let mut rules_of: BTreeMap<u32, Vec<BpfProgram>> = BTreeMap::new();
    for (answer, calls) in grouped(spec)? {
        for (call, rules) in calls {
            let number = u32::try_from(call)
                .map_err(|_| format!("building the system-call filter: call number {call}"))?;
            let Some(rules) = rules else {
                if leads.insert(number, Lead::Answer(answer)).is_some() {
                    return Err(format!(
                        "building the system-call filter: call {call} refused twice"
                    ));
                }
                continue;
            };
            if matches!(leads.insert(number, Lead::Rules), Some(Lead::Answer(_))) {
                return Err(format!(
                    "building the system-call filter: call {call} refused twice"
                ));
            }
            let chain = SeccompFilter::new(
                BTreeMap::from([(call, rules)]),
                SeccompAction::Allow,
                answer.action(),
                arch,
            )
            .and_then(BpfProgram::try_from)
            .map_err(err)?;
            let entered = ARCH_CHECK_LEN + 2;
            let loaded_and_compared = chain.len() > entered
                && chain[ARCH_CHECK_LEN] == op(LOAD_WORD, NR_OFFSET, 0, 0)
                && chain[ARCH_CHECK_LEN + 1] == op(JUMP_EQUAL, number, 0, 1);
            if !loaded_and_compared {
                return Err("building the system-call filter: an unexpected chain".into());
            }
            rules_of
                .entry(number)
                .or_default()
                .push(chain[entered..].to_vec());
        }
    }
    out.push(op(LOAD_WORD, NR_OFFSET, 0, 0));
    let sorted: Vec<(u32, Lead)> = leads.into_iter().collect();
    let (found, jumps) = search_all(&sorted);
    let start = out.len();
    out.extend(found);
    // Each number's rules, one answer after the other (the first that
    // does not refuse the call goes on to the next); a number whose rules
    // are those of one placed already (its x32 number) shares them.
    let mut placed: Vec<(Vec<BpfProgram>, usize)> = Vec::new();
    let mut at: BTreeMap<u32, usize> = BTreeMap::new();
    for (number, answers) in rules_of {
        if let Some((_, where_)) = placed.iter().find(|(a, _)| *a == answers) {
            at.insert(number, *where_);
            continue;
        }
        at.insert(number, out.len());
        placed.push((answers.clone(), out.len()));
        let last = answers.len().saturating_sub(1);
        for (i, mut block) in answers.into_iter().enumerate() {
            if i < last {
                let len = block.len();
                for (j, ins) in block.iter_mut().enumerate() {
                    if *ins == allow {
                        *ins = op(JUMP, (len - j - 1) as u32, 0, 0);
                    }
                }
            }
            out.extend(block);
        }
    }
    for (i, number) in jumps {
        let from = start + i;
        let to = at
            .get(&number)
            .copied()
            .ok_or("building the system-call filter: rules not placed")?;
        out[from] = op(JUMP, (to - from - 1) as u32, 0, 0);
    }
    Ok(out)
}

/// Installs the filter for `spec`'s bot on this process (and so on every
/// process it starts): sets `no_new_privs` and adds the seccomp filter
/// ([`program`]: one, of the three kinds of answer).
/// The process must be single-threaded (the launcher and the sandbox's init
/// are).
///
/// # Errors
/// Why the filter could not be built or installed (the sandbox then fails
/// with `EXIT_SETUP`: a bot never runs without it).
pub(crate) fn install(spec: &Spec) -> Result<(), String> {
    seccompiler::apply_filter(&program(spec)?)
        .map_err(|e| format!("installing the system-call filter: {e}"))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::Limits;

    fn spec(mode: Mode, stdio: bool) -> Spec {
        Spec {
            mode,
            program: PathBuf::from("/bin/true"),
            args: Vec::new(),
            dir: PathBuf::from("/"),
            env: Vec::new(),
            read: Vec::new(),
            scratch: PathBuf::from("/tmp"),
            limits: Limits::default(),
            referee_port: None,
            stdio,
        }
    }

    #[test]
    fn every_kind_of_bot_gets_a_filter_that_builds() {
        for (mode, stdio, sockets) in [
            (Mode::Namespaces, false, Sockets::UnixStream),
            (Mode::Namespaces, true, Sockets::None),
            (Mode::Landlock, false, Sockets::Tcp),
            (Mode::Landlock, true, Sockets::None),
        ] {
            let s = spec(mode, stdio);
            assert_eq!(super::sockets(&s), sockets);
            let programs = programs(&s).unwrap();
            // Refused, missing, pretended.
            assert_eq!(programs.len(), 3);
            // The kernel runs the filter once per call number when it is
            // installed (its action cache): a long one slows every start.
            let len: usize = programs.iter().map(Vec::len).sum();
            assert!(len < 1024, "{len} instructions");
        }
    }

    /// Runs classic BPF `program` on a call: its answer.
    fn run(program: &[sock_filter], arch: u32, nr: u32, args: [u64; 6]) -> u32 {
        run_counted(program, arch, nr, args).0
    }

    /// [`run`], and how many instructions it ran.
    fn run_counted(program: &[sock_filter], arch: u32, nr: u32, args: [u64; 6]) -> (u32, usize) {
        let word = |k: u32| -> u32 {
            match k {
                0 => nr,
                4 => arch,
                k if (16..64).contains(&k) => {
                    let a = args[((k - 16) / 8) as usize];
                    if (k - 16) % 8 == 0 {
                        a as u32
                    } else {
                        (a >> 32) as u32
                    }
                }
                _ => panic!("load of {k}"),
            }
        };
        let (mut a, mut pc, mut ran) = (0u32, 0usize, 0usize);
        loop {
            let i = &program[pc];
            pc += 1;
            ran += 1;
            match i.code {
                0x20 => a = word(i.k),
                0x06 => return (i.k, ran + 1),
                0x05 => pc += i.k as usize,
                0x15 | 0x25 | 0x35 | 0x45 => {
                    let yes = match i.code {
                        0x15 => a == i.k,
                        0x25 => a > i.k,
                        0x35 => a >= i.k,
                        _ => a & i.k != 0,
                    };
                    pc += usize::from(if yes { i.jt } else { i.jf });
                }
                0x54 => a &= i.k,
                other => panic!("instruction {other:#x}"),
            }
        }
    }

    /// A call the filter allows, whatever its arguments, runs through few
    /// of its instructions: the kernel runs the filter for every call
    /// number when it is installed (its action cache), with the sandbox's
    /// signal lock held. (Three filters comparing the number with each
    /// refused call in turn took 310 instructions a call on x86-64, in 955;
    /// one searching them all, 19 in 661.)
    #[test]
    fn an_allowed_call_runs_through_few_instructions() {
        let audit = match std::env::consts::ARCH {
            "x86_64" => 0xc000_003e,
            "aarch64" => 0xc000_00b7,
            _ => return,
        };
        let allow = u32::from(SeccompAction::Allow);
        for (mode, stdio) in [(Mode::Namespaces, false), (Mode::Landlock, false)] {
            let one = program(&spec(mode, stdio)).unwrap();
            let ran: Vec<usize> = (0..450)
                .map(|nr| run_counted(&one, audit, nr, [0; 6]))
                .filter(|(answer, _)| *answer == allow)
                .map(|(_, n)| n)
                .collect();
            let most = ran.iter().max().copied().unwrap_or(0);
            let mean = ran.iter().sum::<usize>() / ran.len().max(1);
            eprintln!(
                "{mode:?}: {} calls allowed, {mean} instructions on average, {most} at most, \
                 of {}",
                ran.len(),
                one.len()
            );
            assert!(ran.len() > 300, "{}", ran.len());
            assert!(mean < 40, "{mean}");
        }
    }

    /// The one filter installed answers every call as the kernel answers it
    /// through the three programs: the answer of the first that does not
    /// allow it (an architecture's kill above all), else allowed.
    #[test]
    fn the_one_filter_answers_as_the_three() {
        let audit = match std::env::consts::ARCH {
            "x86_64" => 0xc000_003e,
            "aarch64" => 0xc000_00b7,
            _ => return,
        };
        let allow = u32::from(SeccompAction::Allow);
        // The kernel's order of actions: the lowest as a signed number wins.
        let first = |answers: Vec<u32>| {
            answers
                .into_iter()
                .min_by_key(|a| (*a & 0xffff_0000) as i32)
                .unwrap_or(allow)
        };
        for (mode, stdio) in [
            (Mode::Namespaces, false),
            (Mode::Namespaces, true),
            (Mode::Landlock, false),
            (Mode::Landlock, true),
        ] {
            let s = spec(mode, stdio);
            let three = programs(&s).unwrap();
            let one = program(&s).unwrap();
            assert!(one.len() < three.iter().map(Vec::len).sum::<usize>());
            let mut refused = [0usize; 3];
            for nr in (0..600).chain((0..600).map(|n| 0x4000_0000 | n)) {
                for args in [
                    [0; 6],
                    [1, 2, 3, 4, 5, 6],
                    [libc::AF_INET as u64, 2, 0, 0, 0, 0],
                    [libc::AF_UNIX as u64, 1, 0, 0, libc::MSG_FASTOPEN as u64, 0],
                    [libc::AF_UNIX as u64, 2, 0, 0, 0, 0],
                    [0, libc::F_SETLK as u64, 0, libc::MSG_FASTOPEN as u64, 0, 0],
                    [0x2000_0000, libc::F_GETLK as u64, 0, 0, 0, 0],
                    [0, 0, MADV_PAGEOUT, 0, 0, 0],
                ] {
                    let theirs: Vec<u32> = three.iter().map(|p| run(p, audit, nr, args)).collect();
                    let ours = run(&one, audit, nr, args);
                    assert_eq!(ours, first(theirs), "call {nr:#x} {args:?}");
                    for (i, a) in [
                        Answer::Refused.action(),
                        Answer::Missing.action(),
                        Answer::Pretend.action(),
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        refused[i] += usize::from(ours == u32::from(a));
                    }
                }
                let theirs: Vec<u32> = three
                    .iter()
                    .map(|p| run(p, 0x4000_0003, nr, [0; 6]))
                    .collect();
                assert_eq!(run(&one, 0x4000_0003, nr, [0; 6]), first(theirs));
                assert_ne!(run(&one, 0x4000_0003, nr, [0; 6]), allow);
            }
            // Each kind of answer is given.
            assert!(
                refused.iter().all(|n| *n > 0),
                "{mode:?} {stdio}: {refused:?}"
            );
        }
    }

    /// The compact programs answer every call as `seccompiler`'s own
    /// chains for the same refusals do.
    #[test]
    fn calls_refused_whatever_their_arguments_answer_as_chains_would() {
        let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
        let audit = match std::env::consts::ARCH {
            "x86_64" => 0xc000_003e,
            "aarch64" => 0xc000_00b7,
            _ => return,
        };
        for (mode, stdio) in [
            (Mode::Namespaces, false),
            (Mode::Namespaces, true),
            (Mode::Landlock, false),
        ] {
            let s = spec(mode, stdio);
            let ours = programs(&s).unwrap();
            // The same refusals as plain `seccompiler` filters.
            let mut by_answer: BTreeMap<Answer, BTreeMap<i64, Vec<SeccompRule>>> = BTreeMap::new();
            for r in refusals(&s).unwrap() {
                #[cfg(target_arch = "x86_64")]
                let numbers = std::iter::once(r.call).chain(x32_numbers(r.call));
                #[cfg(not(target_arch = "x86_64"))]
                let numbers = std::iter::once(r.call);
                for n in numbers {
                    by_answer
                        .entry(r.answer)
                        .or_default()
                        .entry(n)
                        .or_default()
                        .extend(r.when.iter().cloned());
                }
            }
            let theirs: Vec<BpfProgram> = by_answer
                .into_iter()
                .map(|(answer, calls)| {
                    SeccompFilter::new(calls, SeccompAction::Allow, answer.action(), arch)
                        .and_then(BpfProgram::try_from)
                        .unwrap()
                })
                .collect();
            assert_eq!(ours.len(), theirs.len());
            let mut refused = 0;
            for nr in (0..600).chain((0..600).map(|n| 0x4000_0000 | n)) {
                for args in [
                    [0; 6],
                    [1, 2, 3, 4, 5, 6],
                    [libc::AF_INET as u64, 2, 0, 0, 0, 0],
                    [libc::AF_UNIX as u64, 1, 0, 0, libc::MSG_FASTOPEN as u64, 0],
                    [0, libc::F_SETLK as u64, 0, libc::MSG_FASTOPEN as u64, 0, 0],
                    [0x2000_0000, libc::F_GETLK as u64, 0, 0, 0, 0],
                ] {
                    for (o, t) in ours.iter().zip(&theirs) {
                        let (a, b) = (run(o, audit, nr, args), run(t, audit, nr, args));
                        assert_eq!(a, b, "call {nr:#x} {args:?}");
                        refused += usize::from(a != u32::from(SeccompAction::Allow));
                    }
                }
                // Another architecture is killed by both.
                for (o, t) in ours.iter().zip(&theirs) {
                    assert_eq!(
                        run(o, 0x4000_0003, nr, [0; 6]),
                        run(t, 0x4000_0003, nr, [0; 6])
                    );
                }
            }
            assert!(refused > 1000, "{refused}");
        }
    }
}
