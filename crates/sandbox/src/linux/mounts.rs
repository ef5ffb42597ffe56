//! Stage: the private root of a sandbox in [`crate::Mode::Namespaces`].
//!
//! Run by the sandbox's init in its new mount namespace. As bubblewrap does
//! it: a `tmpfs` is mounted on `/tmp` and made the root with `pivot_root`,
//! the old root kept at `/oldroot` while the new tree is built in
//! `/newroot`: read-only binds of the system's runtimes, the bot's folder,
//! its `read` paths and the launcher (the intermediate folders of each made
//! in the new tree, mode 0755, so an unprivileged bot can reach them), the
//! scratch `tmpfs`, a private `/proc` (the machine's counts in it hidden,
//! `meminfo` and `stat` constant: [`MASKED_PROC`]), a minimal `/dev` (binds of `null`,
//! `zero`, `full`, `random`, `urandom`, `tty`) with its own small
//! `/dev/shm`, and the referee's socket for a gRPC bot. Then the old root is
//! detached, `/newroot` becomes `/` and is made read-only. Nothing else of
//! the host is there: no `/tmp`, `/run`, `/home`, `/root`, no host socket.

use std::{
    fs,
    os::unix::fs::{DirBuilderExt, PermissionsExt, symlink},
    path::{Component, Path, PathBuf},
};

use nix::{
    mount::{MntFlags, MsFlags, mount, umount2},
    sys::statvfs::{FsFlags, statvfs},
    unistd::{chdir, pivot_root},
};

use crate::{Spec, system_paths};

const NEW: &str = "/newroot";
const OLD: &str = "/oldroot";
/// Device files a bot may use, bound from the host's `/dev`.
const DEVICES: [&str; 6] = ["null", "zero", "full", "random", "urandom", "tty"];

/// Makes every mount of this namespace private (no event reaches the host's).
pub(crate) fn private_mounts() -> Result<(), String> {
    mount::<str, str, str, str>(None, "/", None, MsFlags::MS_REC | MsFlags::MS_PRIVATE, None)
        .map_err(|e| format!("making mounts private: {e}"))
}

fn tmpfs(at: &Path, options: &str, flags: MsFlags) -> Result<(), String> {
    mount::<str, Path, str, str>(Some("tmpfs"), at, Some("tmpfs"), flags, Some(options))
        .map_err(|e| format!("mounting a tmpfs on {}: {e}", at.display()))
}

/// A private `/proc` at `at` (of this PID namespace).
pub(crate) fn proc(at: &Path) -> Result<(), String> {
    mount::<str, Path, str, str>(
        Some("proc"),
        at,
        Some("proc"),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
        None,
    )
    .map_err(|e| format!("mounting a private /proc: {e}"))
}

/// The scratch `tmpfs` of `mib` MiB at `at`, owned by `owner` (uid, gid) or
/// by the mounter.
pub(crate) fn scratch(at: &Path, mib: u64, owner: Option<(u32, u32)>) -> Result<(), String> {
    let mut options = format!("size={mib}m,mode=0700");
    if let Some((u, g)) = owner {
        options.push_str(&format!(",uid={u},gid={g}"));
    }
    tmpfs(at, &options, MsFlags::MS_NOSUID | MsFlags::MS_NODEV)
}

/// `path` under `base` (`path` absolute).
fn under(base: &str, path: &Path) -> PathBuf {
    let rel: PathBuf = path
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    Path::new(base).join(rel)
}

fn mkdirs(p: &Path) -> Result<(), String> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(p)
        .map_err(|e| format!("making {}: {e}", p.display()))
}

/// An empty file or folder at `dst` to mount `src` on.
fn mount_point(src: &Path, dst: &Path) -> Result<(), String> {
    if let Some(parent) = dst.parent() {
        mkdirs(parent)?;
    }
    if src.is_dir() {
        mkdirs(dst)
    } else if dst.exists() {
        Ok(())
    } else {
        fs::File::create(dst)
            .map(drop)
            .map_err(|e| format!("making {}: {e}", dst.display()))
    }
}

/// The flags a bind's remount must keep (the kernel refuses to clear the
/// flags a less privileged namespace inherited).
fn kept_flags(p: &Path) -> MsFlags {
    let Ok(st) = statvfs(p) else {
        return MsFlags::empty();
    };
    let f = st.flags();
    let mut out = MsFlags::empty();
    for (have, keep) in [
        (FsFlags::ST_NOEXEC, MsFlags::MS_NOEXEC),
        (FsFlags::ST_NOATIME, MsFlags::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, MsFlags::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, MsFlags::MS_RELATIME),
    ] {
        if f.contains(have) {
            out |= keep;
        }
    }
    out
}

/// Binds `src` at `dst`, read-only, no set-user-id, no devices.
fn bind_ro(src: &Path, dst: &Path) -> Result<(), String> {
    mount_point(src, dst)?;
    mount::<Path, Path, str, str>(
        Some(src),
        dst,
        None,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        None,
    )
    .map_err(|e| format!("binding {}: {e}", src.display()))?;
    remount_ro(dst)
}

fn remount_ro(at: &Path) -> Result<(), String> {
    let flags = MsFlags::MS_BIND
        | MsFlags::MS_REMOUNT
        | MsFlags::MS_RDONLY
        | MsFlags::MS_NOSUID
        | MsFlags::MS_NODEV
        | kept_flags(at);
    mount::<str, Path, str, str>(None, at, None, flags, None)
        .map_err(|e| format!("making {} read-only: {e}", at.display()))
}

/// Puts `path` (a host path) in the new tree: a link as the same link (and
/// what it leads to), a file or folder as a read-only bind. Paths already
/// inside a bound folder are there already.
fn place(path: &Path, bound: &mut Vec<PathBuf>) -> Result<(), String> {
    if !path.is_absolute() || bound.iter().any(|b| path.starts_with(b)) {
        return Ok(());
    }
    let src = under(OLD, path);
    let Ok(meta) = fs::symlink_metadata(&src) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        let dst = under(NEW, path);
        if let Ok(target) = fs::read_link(&src) {
            if let Some(parent) = dst.parent() {
                mkdirs(parent)?;
            }
            if fs::symlink_metadata(&dst).is_err() {
                symlink(&target, &dst).map_err(|e| format!("linking {}: {e}", dst.display()))?;
            }
            let resolved = path.parent().unwrap_or(Path::new("/")).join(&target);
            let real = fs::canonicalize(under(OLD, &resolved))
                .ok()
                .and_then(|r| r.strip_prefix(OLD).ok().map(|r| Path::new("/").join(r)));
            bound.push(path.to_path_buf());
            if let Some(real) = real {
                place(&real, bound)?;
            }
        }
        return Ok(());
    }
    bind_ro(&src, &under(NEW, path))?;
    bound.push(path.to_path_buf());
    Ok(())
}

/// The paths a bot in namespaces sees, read-only: the system's, its folder,
/// its `read` list, its program, the launcher (to start it) and, for a
/// gRPC bot, the referee's socket.
fn visible(spec: &Spec, launcher: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = system_paths()
        .into_iter()
        .filter(|p| !p.starts_with("/dev"))
        .collect();
    paths.push(spec.dir.clone());
    paths.extend(spec.read.iter().cloned());
    if spec.program.is_absolute() {
        paths.push(spec.program.clone());
    }
    paths.push(launcher.to_path_buf());
    if let Some(socket) = referee_socket(spec) {
        paths.push(socket);
    }
    // Folders before what they hold.
    paths.sort_by_key(|p| p.components().count());
    paths.dedup();
    paths
}

/// The referee's Unix socket a gRPC bot is given (`WHISTLE_ADDRESS`).
pub(crate) fn referee_socket(spec: &Spec) -> Option<PathBuf> {
    spec.env
        .iter()
        .find(|(k, _)| k == "WHISTLE_ADDRESS")
        .and_then(|(_, v)| v.strip_prefix("unix:"))
        .map(PathBuf::from)
}

fn dev(spec: &Spec) -> Result<(), String> {
    let d = under(NEW, Path::new("/dev"));
    mkdirs(&d)?;
    tmpfs(
        &d,
        "size=64k,nr_inodes=64,mode=0755",
        MsFlags::MS_NOSUID | MsFlags::MS_NOEXEC,
    )?;
    for name in DEVICES {
        let src = Path::new(OLD).join("dev").join(name);
        if !src.exists() {
            continue;
        }
        let dst = d.join(name);
        mount_point(&src, &dst)?;
        mount::<Path, Path, str, str>(Some(&src), &dst, None, MsFlags::MS_BIND, None)
            .map_err(|e| format!("binding {}: {e}", src.display()))?;
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        symlink(target, d.join(name)).map_err(|e| format!("linking /dev/{name}: {e}"))?;
    }
    let shm = d.join("shm");
    mkdirs(&shm)?;
    tmpfs(
        &shm,
        &format!("size={}m,mode=1777", spec.limits.scratch_mib),
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
    )?;
    Ok(())
}

/// Files of `/proc` that show counts of the whole machine which any bot can
/// move at will, each hidden under a file nobody may open (`EACCES`, as a
/// device node on `/proc`'s `nodev` mount answered when `/dev/null` hid
/// them). Two bots read and wrote 25
/// of 25 bits in 150 ms slots through the load and the machine's counts of
/// open files and inodes (`/proc/sys/fs`, hidden whole: [`MASKED_PROC_DIRS`]);
/// one bot holding two seats of a table passed its hand from one instance to
/// the other through `nr_mlock` in `vmstat` (4 of 4 hands). The others are
/// the same kind of count: memory by zone and order, the disks' operations,
/// interrupts, the scheduler's and the idle time (`uptime`'s second field),
/// swap in use, and the entropy the kernel counts (interrupts add to it
/// before Linux 5.18; constant after).
const MASKED_PROC: [&str; 12] = [
    "loadavg",
    "uptime",
    "vmstat",
    "zoneinfo",
    "buddyinfo",
    "pagetypeinfo",
    "diskstats",
    "interrupts",
    "softirqs",
    "schedstat",
    "swaps",
    "sys/kernel/random/entropy_avail",
];

/// Folders of `/proc` hidden whole under an empty folder nobody may open or
/// search (what they held answers `EACCES`): the file system
/// counts (open files, inodes, dentries, asynchronous I/O contexts, quota),
/// pressure stall information and the interrupts' own counts.
const MASKED_PROC_DIRS: [&str; 3] = ["sys/fs", "pressure", "irq"];

/// Where the hiding files are made, in the first root (detached at the end,
/// kept alive by the binds of its files).
const MASKS: &str = "/masks";

/// `/proc/meminfo` as the bot sees it: its own memory limit, all of it free,
/// whatever the machine does (runtimes size their heaps from it: the JVM,
/// .NET, Node).
fn meminfo(memory_mib: u64) -> String {
    let kib = memory_mib.saturating_mul(1024);
    let mut out = String::new();
    for (key, value) in [
        ("MemTotal", kib),
        ("MemFree", kib),
        ("MemAvailable", kib),
        ("Buffers", 0),
        ("Cached", 0),
        ("SwapCached", 0),
        ("Active", 0),
        ("Inactive", 0),
        ("SwapTotal", 0),
        ("SwapFree", 0),
        ("Dirty", 0),
        ("Writeback", 0),
        ("AnonPages", 0),
        ("Mapped", 0),
        ("Shmem", 0),
        ("Slab", 0),
        ("SReclaimable", 0),
        ("SUnreclaim", 0),
        ("CommitLimit", kib),
        ("Committed_AS", 0),
    ] {
        out.push_str(&format!("{:<16}{value:>8} kB\n", format!("{key}:")));
    }
    for key in [
        "HugePages_Total",
        "HugePages_Free",
        "HugePages_Rsvd",
        "HugePages_Surp",
    ] {
        out.push_str(&format!("{:<16}{:>8}\n", format!("{key}:"), 0));
    }
    out
}

/// `/proc/stat` as the bot sees it: a line for each processor it may run on
/// (glibc and libuv count the processors from these lines where `/sys` is
/// absent) with no time spent, the boot time, and no other count.
fn stat(cpus: &[usize], boot_time: u64) -> String {
    let zeros = " 0 0 0 0 0 0 0 0 0 0";
    let mut out = format!("cpu {zeros}\n");
    for c in cpus {
        out.push_str(&format!("cpu{c}{zeros}\n"));
    }
    out.push_str(&format!(
        "intr 0\nctxt 0\nbtime {boot_time}\nprocesses 0\nprocs_running 1\n\
         procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n"
    ));
    out
}

/// The processors this process may run on (its affinity), in order.
fn cpus() -> Vec<usize> {
    let Ok(set) = nix::sched::sched_getaffinity(nix::unistd::Pid::from_raw(0)) else {
        return vec![0];
    };
    let found: Vec<usize> = (0..nix::sched::CpuSet::count())
        .filter(|&c| set.is_set(c).unwrap_or(false))
        .collect();
    if found.is_empty() { vec![0] } else { found }
}

/// The time the machine booted, in seconds since the epoch (`btime`).
fn boot_time() -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let up = nix::time::clock_gettime(nix::time::ClockId::CLOCK_BOOTTIME)
        .map(|t| u64::try_from(t.tv_sec()).unwrap_or(0))
        .unwrap_or(0);
    now.saturating_sub(up)
}

/// Makes the hiding files in a small read-only `tmpfs` at [`MASKS`]: an
/// empty file and an empty folder of mode 000, `meminfo` and `stat`. A bind
/// of a read-only mount is read-only, so each hiding is one mount.
fn masks(spec: &Spec) -> Result<PathBuf, String> {
    let at = Path::new(MASKS);
    mkdirs(at)?;
    tmpfs(
        at,
        "size=64k,nr_inodes=16,mode=0755",
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV | MsFlags::MS_NOEXEC,
    )?;
    let write = |name: &str, text: &str| {
        fs::write(at.join(name), text).map_err(|e| format!("making {MASKS}/{name}: {e}"))
    };
    write("empty", "")?;
    let closed = |name: &str| {
        fs::set_permissions(at.join(name), fs::Permissions::from_mode(0o000))
            .map_err(|e| format!("closing {MASKS}/{name}: {e}"))
    };
    closed("empty")?;
    write("meminfo", &meminfo(spec.limits.memory_mib))?;
    write("stat", &stat(&cpus(), boot_time()))?;
    mkdirs(&at.join("none"))?;
    closed("none")?;
    mount::<str, Path, str, str>(
        None,
        at,
        None,
        MsFlags::MS_BIND
            | MsFlags::MS_REMOUNT
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV
            | MsFlags::MS_NOEXEC,
        None,
    )
    .map_err(|e| format!("making {MASKS} read-only: {e}"))?;
    Ok(at.to_path_buf())
}

/// Hides the machine's counts in the private `/proc` at `proc_at`: the
/// files of [`MASKED_PROC`] under a closed empty file, the folders of
/// [`MASKED_PROC_DIRS`] under a closed empty folder, `meminfo` and `stat` under
/// constant ones. Each is one bind of a read-only file or folder (a
/// missing one, on an older kernel, is skipped).
fn mask_proc(proc_at: &Path, masks: &Path) -> Result<(), String> {
    let bind = |src: &Path, name: &str| -> Result<(), String> {
        let at = proc_at.join(name);
        match mount::<Path, Path, str, str>(Some(src), &at, None, MsFlags::MS_BIND, None) {
            Ok(()) | Err(nix::errno::Errno::ENOENT) => Ok(()),
            Err(e) => Err(format!("hiding {}: {e}", at.display())),
        }
    };
    let empty = masks.join("empty");
    for name in MASKED_PROC {
        bind(&empty, name)?;
    }
    let none = masks.join("none");
    for name in MASKED_PROC_DIRS {
        bind(&none, name)?;
    }
    for name in ["meminfo", "stat"] {
        bind(&masks.join(name), name)?;
    }
    Ok(())
}

/// Builds the private root described above and enters it. `owner` owns the
/// scratch folder (the bot's uid and gid where they differ from init's).
/// Returns whether `/proc` could be mounted.
pub(crate) fn private_root(
    spec: &Spec,
    launcher: &Path,
    owner: Option<(u32, u32)>,
) -> Result<bool, String> {
    nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o022));
    // Found while the host's tree is still the root.
    let paths = visible(spec, launcher);
    super::namespaces::enter_mounts()?;
    private_mounts()?;
    let base = Path::new("/tmp");
    tmpfs(
        base,
        "size=1m,nr_inodes=4096,mode=0755",
        MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
    )?;
    mkdirs(&base.join("newroot"))?;
    mkdirs(&base.join("oldroot"))?;
    pivot_root(base, &base.join("oldroot")).map_err(|e| format!("pivot_root: {e}"))?;
    chdir("/").map_err(|e| format!("chdir: {e}"))?;
    // The new root must be a mount point of its own for the last pivot.
    mount::<str, str, str, str>(
        Some(NEW),
        NEW,
        None,
        MsFlags::MS_BIND | MsFlags::MS_REC,
        None,
    )
    .map_err(|e| format!("binding the new root: {e}"))?;

    let mut bound = Vec::new();
    for p in paths {
        place(&p, &mut bound)?;
    }
    let scratch_at = under(NEW, &spec.scratch);
    mkdirs(&scratch_at)?;
    scratch(&scratch_at, spec.limits.scratch_mib, owner)?;
    dev(spec)?;
    let proc_at = under(NEW, Path::new("/proc"));
    mkdirs(&proc_at)?;
    // Mounted while the host's /proc is still in view (the kernel lets a
    // namespace mount a /proc only where one is fully visible).
    let proc_ok = proc(&proc_at).is_ok();
    if proc_ok {
        mask_proc(&proc_at, &masks(spec)?)?;
    }
    remount_ro(&under(NEW, Path::new("/dev")))?;

    umount2(OLD, MntFlags::MNT_DETACH).map_err(|e| format!("detaching the old root: {e}"))?;
    chdir(NEW).map_err(|e| format!("chdir: {e}"))?;
    pivot_root(".", ".").map_err(|e| format!("pivot_root into the new root: {e}"))?;
    umount2(".", MntFlags::MNT_DETACH).map_err(|e| format!("detaching the base: {e}"))?;
    chdir("/").map_err(|e| format!("chdir: {e}"))?;
    remount_ro(Path::new("/"))?;
    Ok(proc_ok)
}
