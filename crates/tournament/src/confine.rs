//! Fair play for the bots a run starts: their sandboxes (through
//! `whistle-sandbox`), the folders they may read, and whether each play of a
//! deal needs a fresh instance of a bot.

use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    sync::Arc,
};

use whistle_rules::dealing::Seed;
use whistle_sandbox::{Limits, Mode, Support};

use crate::{
    config::{BotKind, Format, LocalBot, Tournament},
    error::RunError,
    procs::Sandboxed,
    schedule::Planned,
};

/// The sandboxes of one run: the mode this machine gives, the launcher, and
/// a private folder (mode 0700) for the referee's Unix socket and the bots'
/// scratch folders, removed when the run ends.
#[derive(Debug)]
pub struct Confinement {
    /// How bots are confined.
    pub mode: Mode,
    /// What the machine offers.
    pub support: Support,
    /// The program that launches sandboxes (the running `whistle`, or the
    /// small launcher beside it).
    pub launcher: PathBuf,
    runtime: tempfile::TempDir,
}

impl Confinement {
    /// Probes this machine through `launcher`.
    ///
    /// # Errors
    /// [`RunError::Sandbox`] saying why no sandbox can be made here and how
    /// to opt out.
    pub fn new(launcher: PathBuf) -> Result<Confinement, RunError> {
        let (mode, support) = whistle_sandbox::probe(&launcher)
            .map_err(|why| RunError::Sandbox(unavailable(&why)))?;
        let runtime = tempfile::Builder::new()
            .prefix("whistle-run-")
            .tempdir()
            .map_err(|e| RunError::Sandbox(format!("cannot make a private folder: {e}")))?;
        if mode == Mode::Namespaces {
            // Where every sandbox mounts its scratch `tmpfs`
            // ([`crate::procs::command`]). Made here, empty, so that the path
            // is there to mount on even when the private folder lies inside
            // a folder a bot reads (`TMPDIR` in the bot's own folder).
            std::fs::create_dir(runtime.path().join(crate::procs::SCRATCH))
                .map_err(|e| RunError::Sandbox(format!("cannot make a private folder: {e}")))?;
        }
        Ok(Confinement {
            mode,
            support,
            launcher,
            runtime,
        })
    }

    /// Where the referee listens for sandboxed bots in [`Mode::Namespaces`].
    pub fn socket(&self) -> PathBuf {
        self.runtime.path().join("referee.sock")
    }

    /// The private folder scratch folders are made in.
    pub fn runtime(&self) -> &Path {
        self.runtime.path()
    }

    /// How sandboxed bots reach `referee`, whose bots' address is `plain`
    /// (`host:port`): in [`Mode::Namespaces`] a Unix socket served from now
    /// on, else `plain` with its port the one a bot may connect to.
    ///
    /// # Errors
    /// [`RunError::Sandbox`] if the socket cannot be made.
    pub async fn reach(
        &self,
        referee: &whistle_referee::Referee,
        plain: &str,
    ) -> Result<Reach, RunError> {
        Ok(match self.mode {
            Mode::Namespaces => {
                let socket = self.socket();
                let server = referee.spawn_unix(&socket).await.map_err(|e| {
                    RunError::Sandbox(format!(
                        "cannot open the referee's Unix socket {}: {e}",
                        socket.display()
                    ))
                })?;
                // Run as root, a bot runs as an unprivileged uid of its own:
                // it may connect (the folder, mode 0700, keeps everyone
                // else out).
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    let _ =
                        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o666));
                }
                Reach {
                    address: format!("unix:{}", socket.display()),
                    port: None,
                    server: Some(server),
                }
            }
            Mode::Landlock => Reach {
                address: plain.to_string(),
                port: plain.rsplit(':').next().and_then(|p| p.parse::<u16>().ok()),
                server: None,
            },
        })
    }

    /// The sandbox of one bot with `limits` that may read `read`, reaching
    /// the referee as `reach` says.
    pub fn sandboxed(&self, limits: Limits, read: Vec<PathBuf>, reach: &Reach) -> Sandboxed {
        Sandboxed {
            launcher: self.launcher.clone(),
            mode: self.mode,
            limits,
            read,
            referee_port: reach.port,
            runtime: self.runtime().to_path_buf(),
        }
    }
}

/// Where sandboxed bots reach the referee ([`Confinement::reach`]).
pub struct Reach {
    /// Their `WHISTLE_ADDRESS`.
    pub address: String,
    /// Landlock alone: the one TCP port they may connect to.
    pub port: Option<u16>,
    /// The Unix socket's server, stopped when this is dropped or shut down.
    pub server: Option<whistle_referee::ServerHandle>,
}

/// The message for a machine without a sandbox.
pub fn unavailable(why: &str) -> String {
    format!(
        "cannot sandbox the bots on this machine: {why}. whistle never starts a bot unconfined \
         unless told: to run trusted bots without a sandbox, set `sandbox = false` on each of \
         them in the file (whistle then says so in the terminal, the standings and the report); \
         see docs/fair-play.md"
    )
}

/// `path` made absolute and free of `..` where it exists.
fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()))
}

/// Run by root, a sandboxed bot runs as an unprivileged uid of its own, so
/// its folder must be open to others (read and enter): say so before the
/// bot fails to start with a bare "permission denied".
fn open_to_others(folder: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    if !nix::unistd::geteuid().is_root() {
        return Ok(());
    }
    let Ok(meta) = std::fs::metadata(folder) else {
        return Ok(());
    };
    let mode = meta.permissions().mode();
    if mode & 0o005 == 0o005 {
        return Ok(());
    }
    Err(format!(
        "its folder {} is closed to others (mode {:o}): run by root, whistle runs each bot \
         as an unprivileged user of its own, which must read its folder: `chmod o+rx {}` \
         (and o+r on its files)",
        folder.display(),
        mode & 0o777,
        folder.display()
    ))
}

/// Whether `granted` (a folder a bot may read) would expose `secret`: it
/// holds it, or lies inside it.
fn exposes(granted: &Path, secret: &Path) -> bool {
    secret.starts_with(granted) || granted.starts_with(secret)
}

/// What a sandboxed bot may read beyond the system's paths: its folder, its
/// `read` list, and the runtime its program lives in (when that exposes
/// nothing `secrets` names).
pub struct Grants {
    /// The bot's folder (its working directory).
    pub folder: PathBuf,
    /// The program, resolved (an absolute path where it could be found).
    pub program: PathBuf,
    /// Paths to read beyond the folder.
    pub read: Vec<PathBuf>,
}

/// The paths no bot may read: the event file, the output folder, and
/// `extra` (a league's folder).
pub fn secrets(t: &Tournament, out: &Path, extra: &[PathBuf]) -> Vec<PathBuf> {
    let mut s = vec![real(&t.path), real(out)];
    s.extend(extra.iter().map(|p| real(p)));
    s
}

/// Checks and resolves what bot `name` may read.
///
/// # Errors
/// [`RunError::Sandbox`] if its folder or a `read` path would expose a
/// secret or another bot's folder.
pub fn grants(
    t: &Tournament,
    name: &str,
    bot: &LocalBot,
    secrets: &[PathBuf],
) -> Result<Grants, RunError> {
    let base = t.base_dir();
    let folder = real(&bot.folder(&base));
    let others: Vec<PathBuf> = t
        .bots
        .iter()
        .filter(|b| b.name != name)
        .filter_map(|b| match &b.kind {
            BotKind::Local(l) => Some(real(&l.folder(&base))),
            BotKind::Remote { .. } => None,
        })
        .filter(|f| *f != folder)
        .collect();
    let mut secrets = secrets.to_vec();
    secrets.extend(others);
    check_grants(bot, &base, &secrets).map_err(|e| RunError::Sandbox(format!("bot `{name}`: {e}")))
}

/// What `bot` (commands relative to `base`) may read, checked against
/// `secrets` (paths no granted folder may hold).
///
/// # Errors
/// Why its folder or a `read` path cannot be granted.
pub fn check_grants(bot: &LocalBot, base: &Path, secrets: &[PathBuf]) -> Result<Grants, String> {
    let folder = real(&bot.folder(base));
    let program = resolve_program(&bot.command[0], base);
    let refuse = |what: &str, p: &Path, why: String| {
        format!(
            "{what} {} {why}; give the bot a folder of its own (`dir`) that holds neither the \
             event's file, its output nor another bot",
            p.display()
        )
    };
    // The bot's folder lies inside a league's folder (a hosted version):
    // it must only not hold a secret. Every other path it is granted must
    // neither hold one nor lie inside one.
    let check_folder = |p: &Path| -> Result<(), String> {
        for s in secrets {
            if s.starts_with(p) {
                return Err(refuse("its folder", p, format!("holds {}", s.display())));
            }
        }
        Ok(())
    };
    let check = |what: &str, p: &Path| -> Result<(), String> {
        for s in secrets {
            if exposes(p, s) {
                let how = if s.starts_with(p) {
                    "holds"
                } else {
                    "lies inside"
                };
                return Err(refuse(what, p, format!("{how} {}", s.display())));
            }
        }
        Ok(())
    };
    // A path inside the bot's own folder is read with it: no grant of its
    // own to check.
    let own = |p: &Path| p.starts_with(&folder);
    // A `pyvenv.cfg` in a folder the bot controls says what the bot likes:
    // believed only when it names a real Python installation.
    let believed = |venv: &Path| {
        let controlled = venv.starts_with(&folder) || folder.starts_with(venv);
        !controlled || whistle_sandbox::names_a_python(venv)
    };
    check_folder(&folder)?;
    open_to_others(&folder)?;
    let mut read = Vec::new();
    for r in &bot.read {
        let r = real(r);
        if !r.exists() {
            return Err(format!(
                "`read` names {}, which does not exist",
                r.display()
            ));
        }
        if !own(&r) {
            check("`read` names", &r)?;
        }
        // A virtual environment is read with the interpreter it links to.
        if believed(&r)
            && let Some(b) = whistle_sandbox::venv_base(&r).map(|b| real(&b))
            && (own(&b) || check("", &b).is_ok())
            && !read.contains(&b)
        {
            read.push(b);
        }
        read.push(r);
    }
    // The running whistle binary (bots and scripts may run `whistle bot`):
    // a program, no secret. So is the bundled bot binary started for
    // `whistle bot ...` in its stead (`procs::started`).
    if let Ok(me) = std::env::current_exe() {
        read.push(real(&me));
    }
    if let Some(small) = crate::procs::bundled_for(&bot.command, base) {
        read.push(real(small));
    }
    // The runtime the program lives in is a guess: granted only when it
    // exposes nothing.
    for g in whistle_sandbox::runtime_guesses(&program) {
        if let Some(venv) = &g.named_by
            && !believed(&real(venv))
        {
            continue;
        }
        let r = real(&g.path);
        if (own(&r) || check("", &r).is_ok()) && !read.contains(&r) {
            read.push(r);
        }
    }
    Ok(Grants {
        folder,
        program,
        read,
    })
}

/// The program of a command's first word: the running binary for
/// `whistle`, a path with a separator against `base`, a bare name from
/// `PATH` (left bare when not found there).
pub fn resolve_program(word: &str, base: &Path) -> PathBuf {
    let p = crate::procs::program(word, base);
    if p.components().count() > 1 || p.is_absolute() {
        // Not resolved through links: a virtual environment's `bin/python`
        // is a link to the interpreter, and the environment is what counts.
        return std::path::absolute(&p).unwrap_or(p);
    }
    std::env::var("PATH")
        .ok()
        .and_then(|path| whistle_sandbox::which(word, &path))
        .unwrap_or(p)
}

/// Why a run must give each play of a deal its own instance of a bot, if it
/// must: in `plan`, one bot holds the same deals in two seats (a duplicate
/// format's rotations, a bot with two seats of a table, a bot at two tables
/// of one set of deals). Read from the plan itself, whatever made it (the
/// file's format or a league's pairing).
pub fn replays_deals(t: &Tournament, plan: &[Planned]) -> Option<String> {
    replays_deals_of(t, plan, |_| true)
}

/// [`replays_deals`] for the bots `which` accepts only.
pub fn replays_deals_of(
    t: &Tournament,
    plan: &[Planned],
    which: impl Fn(usize) -> bool,
) -> Option<String> {
    let mut held: HashMap<(Seed, usize), u64> = Default::default();
    for p in plan {
        for &b in p.seats.iter().filter(|&&b| which(b)) {
            if let Some(first) = held.insert((p.match_seed, b), p.index) {
                let how = if first == p.index {
                    "two seats of one table (there are fewer bots than seats)".to_string()
                } else {
                    format!("the same deals in matches {first} and {}", p.index)
                };
                let format = match t.format {
                    Format::Duplicate => format!(
                        "the `duplicate` format (seatings `{}`) plays each deal in every seating of \
                         a group: ",
                        t.seatings.name()
                    ),
                    _ => String::new(),
                };
                return Some(format!("{format}bot `{}` would hold {how}", t.bots[b].name));
            }
        }
    }
    None
}

/// One bot holding one set of deals: a match seed and the bot's index.
pub type Hold = (Seed, usize);

/// The sets of deals each bot's instances hold now: for every match being
/// played, and every finished one whose instances are not all gone yet, a
/// [`Hold`] of each of its local bots. A match starts only when none of its
/// holds is taken ([`Pending::startable`]), so the instances of a bot that see
/// the same deals never overlap in time: the next one starts after every
/// process of the one before is gone (`procs`, "When a bot is gone").
#[derive(Debug, Default)]
pub struct Holds {
    taken: std::sync::Mutex<HashSet<Hold>>,
    freed: tokio::sync::Notify,
}

impl Holds {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<Hold>> {
        // A panic while the set is held leaves it whole (every change is
        // one insert or remove), so a poisoned lock is still usable.
        self.taken
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Completes when a hold is given back (at once if one was given back
    /// since the last call).
    pub async fn freed(&self) {
        self.freed.notified().await;
    }
}

/// The holds of one match, given back when this is dropped: after its
/// instances are gone.
#[derive(Debug)]
pub struct Held {
    holds: Arc<Holds>,
    keys: Vec<Hold>,
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.keys.is_empty() {
            return;
        }
        let mut taken = self.holds.lock();
        for k in &self.keys {
            taken.remove(k);
        }
        drop(taken);
        self.holds.freed.notify_one();
    }
}

/// The matches of a run still to start, and the order they start in.
///
/// Without fresh instances (no bot holds a deal twice) they start in
/// schedule order. With them, a match starts only when none of its local
/// bots holds its deals now ([`Holds`]); among the matches that may start,
/// the one whose set of deals (its match seed) has the most matches left
/// goes first (the earliest of those in the schedule), so the sets advance
/// side by side and the event keeps its parallelism: at most one match of a
/// set that involves a bot plays at a time, the other sets play meanwhile.
pub struct Pending {
    /// The matches left, in schedule order, with their holds.
    matches: std::collections::VecDeque<(Planned, Vec<Hold>)>,
    /// Matches left per set of deals.
    left: HashMap<Seed, usize>,
    /// Whether holds are kept (the run gives each play of a deal a fresh
    /// instance).
    held: bool,
    holds: Arc<Holds>,
}

impl Pending {
    /// `todo` in schedule order; with `held`, each match holds its deals
    /// for each bot `local` accepts (the bots the run starts).
    pub fn new(todo: Vec<Planned>, held: bool, local: impl Fn(usize) -> bool) -> Pending {
        let mut left: HashMap<Seed, usize> = HashMap::new();
        let matches = todo
            .into_iter()
            .map(|p| {
                let mut keys: Vec<Hold> = Vec::new();
                if held {
                    *left.entry(p.match_seed).or_default() += 1;
                    for &b in &p.seats {
                        // A bot with two seats of one table holds its deals once.
                        if local(b) && !keys.contains(&(p.match_seed, b)) {
                            keys.push((p.match_seed, b));
                        }
                    }
                }
                (p, keys)
            })
            .collect();
        Pending {
            matches,
            left,
            held,
            holds: Arc::default(),
        }
    }

    /// Whether every match has started.
    pub fn is_empty(&self) -> bool {
        self.matches.is_empty()
    }

    /// The holds the run's matches take and give back.
    pub fn holds(&self) -> &Arc<Holds> {
        &self.holds
    }

    /// The next match to start, with its holds taken, if one may start now
    /// (else wait for [`Holds::freed`] and ask again).
    pub fn startable(&mut self) -> Option<(Planned, Held)> {
        if !self.held {
            let (p, keys) = self.matches.pop_front()?;
            return Some((p, self.held(keys)));
        }
        let mut taken = self.holds.lock();
        let mut best: Option<(usize, usize)> = None;
        for (i, (p, keys)) in self.matches.iter().enumerate() {
            let left = self.left.get(&p.match_seed).copied().unwrap_or(0);
            if best.is_some_and(|(_, most)| left <= most) {
                continue;
            }
            if keys.iter().all(|k| !taken.contains(k)) {
                best = Some((i, left));
            }
        }
        let (i, _) = best?;
        let (p, keys) = self.matches.remove(i)?;
        taken.extend(keys.iter().copied());
        drop(taken);
        if let Some(n) = self.left.get_mut(&p.match_seed) {
            *n -= 1;
        }
        Some((p, self.held(keys)))
    }

    fn held(&self, keys: Vec<Hold>) -> Held {
        Held {
            holds: self.holds.clone(),
            keys,
        }
    }
}

/// Arguments that name an existing path relative to the tournament file's
/// folder, made absolute: a bot runs in its own folder, not the file's. An
/// absolute one that climbs (`/a/b/../c`) is resolved too: in a sandbox's
/// private root, only the folders a bot is given exist, not those it
/// would climb through.
pub fn absolute_args(args: &[String], base: &Path) -> Vec<String> {
    args.iter()
        .map(|a| {
            let p = Path::new(a);
            let climbs = p
                .components()
                .any(|c| matches!(c, std::path::Component::ParentDir));
            if p.is_absolute() && climbs && p.exists() {
                return real(p).display().to_string();
            }
            if p.is_relative() && !a.starts_with('-') && p.components().count() > 0 {
                let joined = base.join(p);
                if joined.exists() {
                    return real(&joined).display().to_string();
                }
            }
            a.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_above_a_secret_exposes_it() {
        assert!(exposes(Path::new("/a/b"), Path::new("/a/b/t.toml")));
        assert!(exposes(Path::new("/a/b"), Path::new("/a/b")));
        assert!(!exposes(Path::new("/a/b/bot"), Path::new("/a/b/t.toml")));
        assert!(!exposes(Path::new("/a/bc"), Path::new("/a/b/t.toml")));
    }

    #[test]
    fn a_folder_inside_a_secret_exposes_it() {
        assert!(exposes(Path::new("/l/league.db"), Path::new("/l")));
        assert!(exposes(Path::new("/out/matches"), Path::new("/out")));
        assert!(!exposes(Path::new("/outside"), Path::new("/out")));
    }

    fn planned(index: u64, seats: &[usize], set: u8) -> Planned {
        Planned {
            index,
            seats: seats.to_vec(),
            match_seed: Seed([set; 32]),
            duplicate: Some((u64::from(set), 0)),
        }
    }

    fn indices(started: &[(Planned, Held)]) -> Vec<u64> {
        started.iter().map(|(p, _)| p.index).collect()
    }

    #[test]
    fn a_set_of_deals_waits_for_its_bots_earlier_instances_while_other_sets_start() {
        // Two sets of deals, each in four rotations of bots 0..4, then a
        // third set with bots 4 and 5 only.
        let mut plan = Vec::new();
        for set in 0..2u8 {
            for r in 0..4usize {
                let seats: Vec<usize> = (0..4).map(|s| (s + r) % 4).collect();
                plan.push(planned(plan.len() as u64, &seats, set));
            }
        }
        plan.push(planned(8, &[4, 5, 4, 5], 2));
        let mut pending = Pending::new(plan, true, |_| true);
        let mut started = Vec::new();
        while let Some(next) = pending.startable() {
            started.push(next);
        }
        // One match of each set: the others of sets 0 and 1 wait.
        assert_eq!(indices(&started), [0, 4, 8]);
        // The instances of match 4 are gone: set 1 plays on, set 0 waits.
        let gone = started.remove(1);
        drop(gone);
        let next = pending.startable().expect("set 1's next match");
        assert_eq!(next.0.index, 5);
        assert!(pending.startable().is_none(), "sets 0 and 1 are held");
        // A bot with two seats of one table holds its deals once; when both
        // instances are gone the table's deals are free again.
        let two_seats = started.remove(1);
        assert_eq!(two_seats.1.keys.len(), 2);
        drop(two_seats);
        assert!(pending.startable().is_none(), "set 2 is over");
        // Set 0 has more matches left than set 1: it goes first when both may.
        drop(next);
        drop(started);
        assert_eq!(pending.startable().map(|(p, _)| p.index), Some(1));
    }

    #[test]
    fn a_bot_the_run_does_not_start_holds_nothing_and_without_instances_the_order_stays() {
        let plan = vec![planned(0, &[0, 1], 0), planned(1, &[1, 0], 0)];
        let mut remote = Pending::new(plan.clone(), true, |_| false);
        assert!(remote.startable().is_some() && remote.startable().is_some());
        let mut plain = Pending::new(plan, false, |_| true);
        let (a, b) = (plain.startable().unwrap(), plain.startable().unwrap());
        assert_eq!((a.0.index, b.0.index), (0, 1));
    }
}
