//! Stage: the sandbox's cgroup, where the machine gives one.
//!
//! The launcher makes a group of its own beside or under its own (read from
//! `/proc/self/cgroup`): cgroup v2 where the memory, pids and cpu
//! controllers can be had there (a subtree systemd delegates to a user, or
//! root), else cgroup v1's hierarchies as root. The group bounds the whole
//! sandbox's memory (anonymous, shared and `tmpfs` pages alike: the kernel
//! charges them all), its tasks and its share of the processors, and it
//! lists every process of the sandbox however it was started, so that the
//! launcher can kill them all at the end. Where no group can be had the
//! watchdog keeps the limits ([`super::watchdog`]).

use std::path::{Path, PathBuf};

use nix::{
    sys::signal::{Signal, kill},
    unistd::Pid,
};

use crate::{CGROUP_VAR, Limits};

/// The controllers a sandbox's group uses.
const CONTROLLERS: [&str; 3] = ["memory", "pids", "cpu"];

/// One sandbox's cgroup (one folder on v2; on v1 one per hierarchy).
pub(crate) struct Cgroup {
    v2: bool,
    /// Controller name and the group's folder in its hierarchy.
    dirs: Vec<(&'static str, PathBuf)>,
    /// Where the launcher was in each hierarchy (to go back to).
    home: Vec<PathBuf>,
    /// Whether the launcher is in the group (it joins to start the
    /// sandbox's first process there, then leaves).
    joined: std::cell::Cell<bool>,
    /// The folders the paths above go through once the group is pinned
    /// ([`Cgroup::pin`]), held open.
    held: Vec<std::fs::File>,
}

/// A mounted cgroup hierarchy: its mount point, the root of the mount
/// within the hierarchy, and its super options (v1: the controllers).
struct Mount {
    at: PathBuf,
    root: String,
    v2: bool,
    options: Vec<String>,
}

fn mounts() -> Vec<Mount> {
    let text = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let f: Vec<&str> = before.split(' ').collect();
            let a: Vec<&str> = after.split(' ').collect();
            let fstype = *a.first()?;
            if fstype != "cgroup" && fstype != "cgroup2" {
                return None;
            }
            Some(Mount {
                at: PathBuf::from(unescape(f.get(4)?)),
                root: unescape(f.get(3)?),
                v2: fstype == "cgroup2",
                options: a.get(2)?.split(',').map(str::to_string).collect(),
            })
        })
        .collect()
}

/// `/proc/self/mountinfo` writes spaces and the like as octal escapes.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 < b.len() && b[i + 1..i + 4].iter().all(u8::is_ascii_digit) {
            let n = b[i + 1..i + 4]
                .iter()
                .fold(0u32, |n, d| n * 8 + u32::from(d - b'0'));
            out.push(n as u8);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// This process's place in each hierarchy: (controllers, path).
fn own_groups() -> Vec<(Vec<String>, String)> {
    let text = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let mut it = l.splitn(3, ':');
            let _id = it.next()?;
            let ctl = it.next()?;
            let path = it.next()?;
            Some((
                ctl.split(',')
                    .filter(|c| !c.is_empty())
                    .map(str::to_string)
                    .collect(),
                path.to_string(),
            ))
        })
        .collect()
}

/// The folder of `path` (a group's path in its hierarchy) under mount `m`.
fn folder(m: &Mount, path: &str) -> PathBuf {
    let rel = if m.root != "/" {
        path.strip_prefix(&m.root).unwrap_or(path)
    } else {
        path
    };
    m.at.join(rel.trim_start_matches('/'))
}

fn write(dir: &Path, file: &str, text: &str) -> Result<(), String> {
    std::fs::write(dir.join(file), text)
        .map_err(|e| format!("writing {text:?} to {}: {e}", dir.join(file).display()))
}

impl Cgroup {
    /// Makes the group of the sandbox whose launcher is `me`, with
    /// `limits`; `None` where the machine gives none (or [`CGROUP_VAR`] is
    /// `none`), with why. `sweep`: also remove the groups launchers killed
    /// outright left ([`Cgroup::sweep`]).
    pub(crate) fn make(limits: &Limits, me: Pid, sweep: bool) -> Result<Cgroup, String> {
        if std::env::var(CGROUP_VAR).as_deref() == Ok("none") {
            return Err(format!("{CGROUP_VAR}=none"));
        }
        let name = format!("whistle-sandbox-{me}");
        let mounts = mounts();
        let own = own_groups();
        let v2 = Cgroup::make_v2(&mounts, &own, &name);
        let group = match v2 {
            Ok(g) => g,
            Err(e2) => Cgroup::make_v1(&mounts, &own, &name)
                .map_err(|e1| format!("cgroup v2: {e2}; cgroup v1: {e1}"))?,
        };
        if sweep {
            group.sweep();
        }
        if let Err(e) = group.set(limits) {
            group.remove();
            return Err(e);
        }
        Ok(group)
    }

    fn make_v2(
        mounts: &[Mount],
        own: &[(Vec<String>, String)],
        name: &str,
    ) -> Result<Cgroup, String> {
        let m = mounts.iter().find(|m| m.v2).ok_or("no cgroup2 mount")?;
        let path = own
            .iter()
            .find(|(ctl, _)| ctl.is_empty())
            .map(|(_, p)| p.clone())
            .ok_or("not in a cgroup2 group")?;
        let here = folder(m, &path);
        // A group that holds processes cannot give its controllers to a
        // child (v2's rule): then the sandbox's group goes beside it.
        let mut tried = Vec::new();
        for parent in [Some(here.as_path()), here.parent()].into_iter().flatten() {
            if !parent.starts_with(&m.at) {
                continue;
            }
            let have =
                std::fs::read_to_string(parent.join("cgroup.subtree_control")).unwrap_or_default();
            let missing: Vec<&str> = CONTROLLERS
                .iter()
                .copied()
                .filter(|c| !have.split_whitespace().any(|h| h == *c))
                .collect();
            if !missing.is_empty() {
                let add: Vec<String> = missing.iter().map(|c| format!("+{c}")).collect();
                if let Err(e) = write(parent, "cgroup.subtree_control", &add.join(" ")) {
                    tried.push(e);
                    continue;
                }
            }
            let dir = parent.join(name);
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    return Ok(Cgroup {
                        v2: true,
                        dirs: CONTROLLERS.iter().map(|c| (*c, dir.clone())).collect(),
                        home: vec![here.clone()],
                        joined: false.into(),
                        held: Vec::new(),
                    });
                }
                Err(e) => tried.push(format!("making {}: {e}", dir.display())),
            }
        }
        Err(if tried.is_empty() {
            "no usable group".into()
        } else {
            tried.join("; ")
        })
    }

    fn make_v1(
        mounts: &[Mount],
        own: &[(Vec<String>, String)],
        name: &str,
    ) -> Result<Cgroup, String> {
        let mut dirs = Vec::new();
        let mut home = Vec::new();
        let mut why = Vec::new();
        for c in CONTROLLERS {
            let Some(m) = mounts
                .iter()
                .find(|m| !m.v2 && m.options.iter().any(|o| o == c))
            else {
                why.push(format!("no {c} hierarchy"));
                continue;
            };
            let Some((_, path)) = own.iter().find(|(ctl, _)| ctl.iter().any(|x| x == c)) else {
                continue;
            };
            let here = folder(m, path);
            let dir = here.join(name);
            // Hierarchies can hold several controllers (cpu,cpuacct).
            if dirs.iter().any(|(_, d)| *d == dir) {
                dirs.push((c, dir));
                continue;
            }
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    dirs.push((c, dir));
                    home.push(here);
                }
                Err(e) => why.push(format!("making {}: {e}", dir.display())),
            }
        }
        if dirs.is_empty() {
            return Err(why.join("; "));
        }
        Ok(Cgroup {
            v2: false,
            dirs,
            home,
            joined: false.into(),
            held: Vec::new(),
        })
    }

    /// Removes the groups a launcher killed outright (SIGKILL) left beside
    /// this one: empty, their launcher gone (a group with a process in it
    /// cannot be removed).
    fn sweep(&self) {
        for d in self.folders() {
            let Some(parent) = d.parent() else { continue };
            let Ok(entries) = std::fs::read_dir(parent) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name();
                let Some(pid) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("whistle-sandbox-"))
                    .and_then(|p| p.parse::<u32>().ok())
                else {
                    continue;
                };
                if !Path::new(&format!("/proc/{pid}")).exists() {
                    let _ = std::fs::remove_dir(e.path());
                }
            }
        }
    }

    /// Keeps the group within reach of a process that is about to leave
    /// the host's tree for a private root (the launcher that is its
    /// sandbox's init, [`super::run_as_init`]): from now on each folder of
    /// the group is named through a descriptor of its parent, and each
    /// folder the launcher came from through one of its own, held open
    /// here (`/proc/self/fd/N/...`: the sandbox's own `/proc` shows this
    /// process's descriptors). The descriptors are closed on `exec`.
    pub(crate) fn pin(&mut self) -> Result<(), String> {
        let mut held: Vec<(PathBuf, std::fs::File)> = Vec::new();
        let mut through = |dir: &Path| -> Result<PathBuf, String> {
            use std::os::fd::AsRawFd;
            let fd = match held.iter().find(|(p, _)| p == dir) {
                Some((_, f)) => f.as_raw_fd(),
                None => {
                    let f = std::fs::File::open(dir)
                        .map_err(|e| format!("opening {}: {e}", dir.display()))?;
                    let fd = f.as_raw_fd();
                    held.push((dir.to_path_buf(), f));
                    fd
                }
            };
            Ok(PathBuf::from(format!("/proc/self/fd/{fd}")))
        };
        let mut dirs = Vec::new();
        for (c, d) in &self.dirs {
            let (Some(parent), Some(name)) = (d.parent(), d.file_name()) else {
                return Err(format!("no parent folder for {}", d.display()));
            };
            dirs.push((*c, through(parent)?.join(name)));
        }
        let home = self
            .home
            .iter()
            .map(|h| through(h))
            .collect::<Result<Vec<_>, _>>()?;
        self.dirs = dirs;
        self.home = home;
        self.held = held.into_iter().map(|(_, f)| f).collect();
        Ok(())
    }

    fn dir(&self, controller: &str) -> Option<&Path> {
        self.dirs
            .iter()
            .find(|(c, _)| *c == controller)
            .map(|(_, d)| d.as_path())
    }

    /// The group's distinct folders.
    fn folders(&self) -> Vec<&Path> {
        let mut out: Vec<&Path> = Vec::new();
        for (_, d) in &self.dirs {
            if !out.contains(&d.as_path()) {
                out.push(d);
            }
        }
        out
    }

    fn set(&self, l: &Limits) -> Result<(), String> {
        let mem = (l.memory_mib << 20).to_string();
        // The sandbox's init (namespaces) is one task of the group too.
        let tasks = (l.processes + 1).to_string();
        let period = 100_000u64;
        let quota = l.cpus.millis() * period / 1000;
        if let Some(d) = self.dir("memory") {
            if self.v2 {
                write(d, "memory.max", &mem)?;
                let _ = write(d, "memory.swap.max", "0");
            } else {
                write(d, "memory.limit_in_bytes", &mem)?;
                let _ = write(d, "memory.memsw.limit_in_bytes", &mem);
            }
        }
        if let Some(d) = self.dir("pids") {
            write(d, "pids.max", &tasks)?;
        }
        if let Some(d) = self.dir("cpu") {
            if self.v2 {
                write(d, "cpu.max", &format!("{quota} {period}"))?;
            } else {
                write(d, "cpu.cfs_period_us", &period.to_string())?;
                write(d, "cpu.cfs_quota_us", &quota.to_string())?;
            }
        }
        Ok(())
    }

    /// Moves `pid`, the launcher that is the sandbox's init
    /// ([`super::run_as_init`]), out of the group's memory once the bot is
    /// in the group: the memory the bot fills is not the launcher's to be
    /// killed for, nor charged with what it does at the end. On cgroup v1
    /// it stays in the other hierarchies, as an init does: its tasks count
    /// among the group's (its `pids.max` counts one for it) and its CPU,
    /// the reaping of the bot's orphans included, is the bot's. On v2 (one
    /// folder for every controller) it leaves the group, and the group's
    /// tasks are bounded to the bot's own `processes`.
    pub(crate) fn leave_memory(&self, pid: Pid, processes: u64) {
        if self.v2 {
            self.leave(pid);
            if let Some(d) = self.dir("pids") {
                let _ = write(d, "pids.max", &processes.to_string());
            }
        } else if let Some(home) = self.dir("memory").and_then(Path::parent) {
            let _ = write(home, "cgroup.procs", &pid.to_string());
        }
    }

    /// Whether the group bounds `controller`'s resource.
    pub(crate) fn has(&self, controller: &str) -> bool {
        self.dir(controller).is_some()
    }

    /// What the group bounds, for people.
    pub(crate) fn describe(&self) -> String {
        let ctl: Vec<&str> = self.dirs.iter().map(|(c, _)| *c).collect();
        format!(
            "cgroup {} ({})",
            if self.v2 { "v2" } else { "v1" },
            ctl.join(", ")
        )
    }

    /// Moves process `pid` into the group (every hierarchy).
    pub(crate) fn join(&self, pid: Pid) -> Result<(), String> {
        self.joined.set(true);
        for d in self.folders() {
            write(d, "cgroup.procs", &pid.to_string())?;
        }
        Ok(())
    }

    /// Moves process `pid` (the launcher) back where it was, if it joined
    /// (each move is costly: a cgroup v1 move waits for the kernel's
    /// read-copy-update).
    pub(crate) fn leave(&self, pid: Pid) {
        if !self.joined.replace(false) {
            return;
        }
        for h in &self.home {
            let _ = write(h, "cgroup.procs", &pid.to_string());
        }
    }

    /// The processes in the group.
    pub(crate) fn procs(&self) -> Vec<Pid> {
        let mut out = Vec::new();
        for d in self.folders() {
            let text = std::fs::read_to_string(d.join("cgroup.procs")).unwrap_or_default();
            for p in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                let p = Pid::from_raw(p);
                if !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// How many processes the memory controller has killed for the limit.
    pub(crate) fn oom_kills(&self) -> u64 {
        let Some(d) = self.dir("memory") else {
            return 0;
        };
        let file = if self.v2 {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        std::fs::read_to_string(d.join(file))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    }

    /// How many forks the pids controller refused at the limit.
    pub(crate) fn forks_refused(&self) -> u64 {
        let Some(d) = self.dir("pids") else {
            return 0;
        };
        std::fs::read_to_string(d.join("pids.events"))
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("max "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Kills every process of the group (but `spare`) until it is empty,
    /// for up to about `rounds` × 5 ms. Whether it is empty.
    pub(crate) fn kill_all(&self, spare: Pid, rounds: u32) -> bool {
        if self.v2 {
            if let Some(d) = self.folders().first() {
                if self.procs().iter().all(|p| *p != spare) {
                    let _ = write(d, "cgroup.kill", "1");
                }
            }
        }
        for _ in 0..rounds {
            let left: Vec<Pid> = self.procs().into_iter().filter(|p| *p != spare).collect();
            if left.is_empty() {
                return true;
            }
            for p in left {
                let _ = kill(p, Signal::SIGKILL);
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        false
    }

    /// Removes the group (its processes killed first).
    pub(crate) fn remove(&self) {
        let me = nix::unistd::getpid();
        self.leave(me);
        self.kill_all(me, 400);
        for d in self.folders() {
            for _ in 0..100 {
                if std::fs::remove_dir(d).is_ok() || !d.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
}
