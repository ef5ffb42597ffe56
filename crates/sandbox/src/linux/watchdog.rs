//! Stage: the watchdog, which keeps the limits no cgroup keeps.
//!
//! It runs in a process the bot can neither signal, trace nor outlive (the
//! sandbox's init in namespaces: PID 1, undumpable, of another user or user
//! namespace; the launcher with Landlock alone: outside the bot's Landlock
//! domain) and, every few milliseconds, looks at all of the sandbox's
//! processes:
//!
//! - processes and threads together (namespaces; Landlock alone has
//!   `RLIMIT_NPROC`);
//! - memory: resident memory (which counts mapped shared memory) plus what
//!   the sandbox's `tmpfs` folders hold (its scratch folder and `/dev/shm`);
//! - its share of the processors: CPU time over wall time over a window of
//!   [`WINDOW`];
//! - with Landlock alone, the size of the scratch folder (a host folder).

use std::{
    collections::VecDeque,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use nix::{
    sys::resource::{UsageWho, getrusage},
    unistd::{Pid, SysconfVar, sysconf},
};

use crate::{Limits, Verdict};

/// The window over which the CPU share is measured.
pub(crate) const WINDOW: Duration = Duration::from_secs(2);
/// How far above its share a sandbox may go over [`WINDOW`] before it is
/// stopped (the kernel's accounting is in clock ticks).
const SHARE_SLACK: f64 = 1.25;

/// Whose processes the watchdog watches.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope {
    /// Every process of this PID namespace but this one (the sandbox's init).
    Namespace,
    /// This process's descendants (the launcher, a child subreaper).
    Descendants,
}

/// What the watchdog checks (what no cgroup keeps).
#[derive(Debug, Clone, Default)]
pub(crate) struct Duties {
    pub(crate) processes: bool,
    pub(crate) memory: bool,
    pub(crate) cpu_share: bool,
    /// Landlock alone: the scratch folder on the host's disk, summed.
    pub(crate) scratch: Option<PathBuf>,
}

/// The watchdog of one sandbox.
pub(crate) struct Watch {
    limits: Limits,
    duties: Duties,
    scope: Scope,
    /// `tmpfs` mounts whose pages count as the sandbox's memory.
    tmpfs: Vec<PathBuf>,
    samples: VecDeque<(Instant, f64)>,
    polls: u64,
    tick: f64,
}

/// One process of the sandbox as `/proc/PID/stat` and `status` give it.
struct Proc {
    pid: i32,
    ppid: i32,
    /// CPU seconds, its own and its waited-for children's.
    cpu: f64,
}

fn stat(pid: i32, tick: f64) -> Option<Proc> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &text[text.rfind(')')? + 1..];
    let f: Vec<&str> = after.split_whitespace().collect();
    let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    Some(Proc {
        pid,
        ppid: f.get(1)?.parse().ok()?,
        cpu: (num(11) + num(12) + num(13) + num(14)) / tick,
    })
}

fn pids() -> Vec<i32> {
    std::fs::read_dir("/proc").map_or_else(
        |_| Vec::new(),
        |entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
                .collect()
        },
    )
}

/// This process's descendants: read down from its own tasks' `children`
/// files (only the sandbox's processes are read), or, where the kernel
/// keeps no such file, found in the whole system's `/proc`.
fn descendants(me: i32, tick: f64) -> Vec<Proc> {
    match descendant_ids(me) {
        Some(ids) => ids.into_iter().filter_map(|p| stat(p, tick)).collect(),
        None => descendants_of_all(me, tick),
    }
}

/// The pids of `me`'s descendants from `/proc/PID/task/TID/children`, or
/// `None` where the kernel has no such file (it needs
/// `CONFIG_PROC_CHILDREN`). A process that ends meanwhile has no children
/// to read: its own were given to a reaper the caller reads again.
fn descendant_ids(me: i32) -> Option<Vec<i32>> {
    let children = |pid: i32| -> Option<Vec<i32>> {
        let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
        let mut out = Vec::new();
        for t in tasks.flatten() {
            let text = std::fs::read_to_string(t.path().join("children")).ok()?;
            out.extend(
                text.split_whitespace()
                    .filter_map(|w| w.parse::<i32>().ok()),
            );
        }
        Some(out)
    };
    let mut out = children(me)?;
    let mut i = 0;
    while i < out.len() {
        let more = children(out[i]).unwrap_or_default();
        for c in more {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        i += 1;
    }
    Some(out)
}

/// This process's descendants, from the whole system's `/proc`.
fn descendants_of_all(me: i32, tick: f64) -> Vec<Proc> {
    let all: Vec<Proc> = pids().into_iter().filter_map(|p| stat(p, tick)).collect();
    let mut ours: Vec<i32> = vec![me];
    let mut out = Vec::new();
    let mut grew = true;
    let mut left = all;
    while grew {
        grew = false;
        let (mine, rest): (Vec<Proc>, Vec<Proc>) =
            left.into_iter().partition(|p| ours.contains(&p.ppid));
        left = rest;
        for p in mine {
            ours.push(p.pid);
            out.push(p);
            grew = true;
        }
    }
    out
}

/// The pids of this process's descendants.
pub(crate) fn descendant_pids() -> Vec<Pid> {
    let me = nix::unistd::getpid().as_raw();
    descendants(me, clock_tick())
        .into_iter()
        .map(|p| Pid::from_raw(p.pid))
        .collect()
}

/// How many tasks (threads) user `uid` runs on this machine.
pub(crate) fn tasks_of_user(uid: u32) -> u64 {
    let mut n = 0;
    for pid in pids() {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        };
        if field("Uid:") == Some(u64::from(uid)) {
            n += field("Threads:").unwrap_or(1);
        }
    }
    n
}

pub(crate) fn clock_tick() -> f64 {
    sysconf(SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .map_or(100.0, |t| t as f64)
}

/// Resident memory of `pid` in bytes (which counts the shared memory it
/// maps) and its threads.
fn memory_and_threads(pid: i32) -> (u64, u64) {
    let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (0, 0);
    };
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
    };
    (
        field("VmRSS:").unwrap_or(0) * 1024,
        field("Threads:").unwrap_or(1),
    )
}

/// Bytes a `tmpfs` holds.
fn tmpfs_used(at: &Path) -> u64 {
    nix::sys::statvfs::statvfs(at).map_or(0, |s| {
        s.blocks().saturating_sub(s.blocks_free()) * s.fragment_size()
    })
}

/// The size of folder `dir` (each entry at least a block), counted up to
/// just past `stop`.
pub(crate) fn folder_size(dir: &Path, stop: u64) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0u64;
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(meta) = e.metadata() else { continue };
            total += (meta.blocks() * 512).max(4096);
            if meta.is_dir() {
                todo.push(e.path());
            }
            if total > stop {
                return total;
            }
        }
    }
    total
}

impl Watch {
    pub(crate) fn new(limits: Limits, duties: Duties, scope: Scope, tmpfs: Vec<PathBuf>) -> Watch {
        Watch {
            limits,
            duties,
            scope,
            tmpfs,
            samples: VecDeque::new(),
            polls: 0,
            tick: clock_tick(),
        }
    }

    /// Whether there is nothing to watch (a cgroup keeps every limit).
    pub(crate) fn idle(&self) -> bool {
        let d = &self.duties;
        !d.processes && !d.memory && !d.cpu_share && d.scratch.is_none()
    }

    fn procs(&self) -> Vec<Proc> {
        match self.scope {
            Scope::Namespace => pids()
                .into_iter()
                .filter(|&p| p != 1)
                .filter_map(|p| stat(p, self.tick))
                .collect(),
            Scope::Descendants => descendants(nix::unistd::getpid().as_raw(), self.tick),
        }
    }

    /// CPU seconds of the sandbox so far: the processes waited for (by
    /// this process, directly or through their parents) and the live ones.
    fn cpu(&self, procs: &[Proc]) -> f64 {
        let reaped = getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0.0, |u| {
            let t = |tv: nix::sys::time::TimeVal| tv.tv_sec() as f64 + tv.tv_usec() as f64 / 1e6;
            t(u.user_time()) + t(u.system_time())
        });
        reaped + procs.iter().map(|p| p.cpu).sum::<f64>()
    }

    /// One look, every 5 ms: the verdict and what was seen, if a limit is
    /// passed.
    pub(crate) fn check(&mut self) -> Option<(Verdict, String)> {
        self.polls += 1;
        let l = self.limits;
        // Processes are counted every 5 ms (a directory listing);
        // the rest every 50 ms.
        let quick = self.duties.processes && matches!(self.scope, Scope::Namespace);
        let count = if quick {
            pids().into_iter().filter(|&p| p != 1).count() as u64
        } else {
            0
        };
        if self.polls % 10 != 0 && count <= l.processes {
            return None;
        }
        let d = &self.duties;
        let procs = if d.processes || d.memory || d.cpu_share {
            self.procs()
        } else {
            Vec::new()
        };
        if self.duties.processes || self.duties.memory {
            let (mut bytes, mut tasks) = (0u64, 0u64);
            for p in &procs {
                let (m, t) = memory_and_threads(p.pid);
                bytes += m;
                tasks += t;
            }
            if self.duties.processes && tasks > l.processes {
                return Some((
                    Verdict::Processes(l.processes),
                    format!("the bot held {tasks} processes and threads and was stopped"),
                ));
            }
            if self.duties.memory {
                let shared: u64 = self.tmpfs.iter().map(|t| tmpfs_used(t)).sum();
                if bytes + shared > l.memory_mib << 20 {
                    return Some((
                        Verdict::Memory(l.memory_mib),
                        format!(
                            "the bot's processes held {} MiB ({} MiB of it in its tmpfs \
                             folders) and were stopped",
                            (bytes + shared) >> 20,
                            shared >> 20
                        ),
                    ));
                }
            }
        }
        if let Some(dir) = &self.duties.scratch {
            let bound = l.scratch_mib << 20;
            let size = folder_size(dir, bound);
            if size > bound {
                return Some((
                    Verdict::Scratch(l.scratch_mib),
                    format!(
                        "its scratch folder held more than {} MiB and it was stopped",
                        l.scratch_mib
                    ),
                ));
            }
        }
        if self.duties.cpu_share {
            let now = Instant::now();
            let cpu = self.cpu(&procs);
            self.samples.push_back((now, cpu));
            while self
                .samples
                .get(1)
                .is_some_and(|(t, _)| now.duration_since(*t) >= WINDOW)
            {
                self.samples.pop_front();
            }
            if let Some(&(t0, c0)) = self.samples.front() {
                let wall = now.duration_since(t0).as_secs_f64();
                let used = cpu - c0;
                if wall >= WINDOW.as_secs_f64() * 0.9
                    && used > l.cpus.get() * SHARE_SLACK * wall + 0.05
                {
                    return Some((
                        Verdict::CpuShare(l.cpus),
                        format!(
                            "the bot's processes used {:.2} processors over {wall:.1} s and \
                             were stopped",
                            used / wall
                        ),
                    ));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_read_down_the_children_files_are_those_the_whole_proc_shows() {
        // A child with two children of its own.
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 5 & sleep 5 & wait"])
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let me = nix::unistd::getpid().as_raw();
        let tick = clock_tick();
        // The shell's children appear once it has forked them.
        let subtree = |ids: &[i32]| -> Vec<i32> {
            let all: Vec<Proc> = ids.iter().filter_map(|&p| stat(p, tick)).collect();
            let mut ours = vec![pid];
            for _ in 0..3 {
                for p in &all {
                    if ours.contains(&p.ppid) && !ours.contains(&p.pid) {
                        ours.push(p.pid);
                    }
                }
            }
            ours.sort_unstable();
            ours
        };
        let mut seen = Vec::new();
        for _ in 0..200 {
            let scan: Vec<i32> = descendants_of_all(me, tick).iter().map(|p| p.pid).collect();
            seen = subtree(&scan);
            if seen.len() == 3 {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let read = descendant_ids(me).map(|r| subtree(&r));
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen.len(), 3, "the shell and its two sleeps: {seen:?}");
        // Where the kernel keeps children files, they give the same processes.
        if let Some(read) = read {
            assert_eq!(read, seen);
        }
    }
}
