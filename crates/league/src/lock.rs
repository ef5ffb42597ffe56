//! One league folder, one writer: [`Writer`], the lock a process that plays
//! rounds or records matches (`league serve`, `league round`,
//! `league import`, `league init`) holds on the league folder for its
//! whole life.
//!
//! The lock is an advisory `flock` on `LEAGUE/.lock` (the file's contents
//! name the holder: its pid, its command and since when). The kernel
//! releases it when the process ends, however it ends (SIGKILL included):
//! a stale `.lock` file holds nothing. A second writer is refused at once,
//! before it reads or writes anything of the league, naming the holder.
//! Readers (`standings`, `rounds`, `history`, `versions`, the site's pages)
//! take no lock: the store is SQLite in WAL mode, and a reader sees the
//! last committed state. Short store edits meant to run beside a serving
//! league (`add-bot`, `retire-bot`, uploads, `withdraw`, `disable`) take
//! none either: each is one SQLite transaction, and the serving league
//! reads them at its next look.
//!
//! The lock file is opened close-on-exec: the bots a round starts do not
//! inherit it, so a bot left running by a killed league holds nothing.

use std::{fs::File, io::Write as _, path::Path};

use crate::error::LeagueError;

/// The lock file's name in a league folder.
pub const LOCK_FILE: &str = ".lock";

/// The writer's lock on a league folder, held while this lives (and, at
/// the latest, until the process ends).
#[derive(Debug)]
pub struct Writer {
    _lock: nix::fcntl::Flock<File>,
}

/// Takes the writer's lock on the league folder `league` for `command`
/// (the words a refused writer is told, e.g. `league serve`), or refuses at
/// once if another process holds it.
///
/// # Errors
/// [`LeagueError::Refused`] naming the holder (pid, command, since when)
/// when another process writes the league; [`LeagueError::Io`] if the lock
/// file cannot be opened (a read-only folder: no writer can work there).
pub fn acquire(league: &Path, command: &str) -> Result<Writer, LeagueError> {
    let path = league.join(LOCK_FILE);
    // Never truncated on open: a refused writer leaves the holder's words.
    let file = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(&path)
            .map_err(|e| LeagueError::Io(path.clone(), e))?
    };
    let mut lock = match nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
    {
        Ok(lock) => lock,
        Err((_, nix::errno::Errno::EWOULDBLOCK)) => {
            // The holder writes who it is right after it locks: a
            // contender that came at the same instant waits a moment for it.
            let mut holder = String::new();
            for _ in 0..50 {
                holder = std::fs::read_to_string(&path).unwrap_or_default();
                if !holder.trim().is_empty() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            let holder = holder.trim();
            return Err(LeagueError::Refused(format!(
                "{} is in use by another whistle process ({}): one process at a time \
                 plays a league's rounds or records its matches; stop it first (the read-only \
                 commands `standings`, `rounds`, `history` and `versions` work meanwhile)",
                league.display(),
                if holder.is_empty() {
                    "one that has not said who it is"
                } else {
                    holder
                }
            )));
        }
        Err((_, e)) => return Err(LeagueError::Io(path, e.into())),
    };
    let words = format!(
        "pid {}, `whistle {command}`, since {}\n",
        std::process::id(),
        crate::store::now()
    );
    // The words are for people; a lock whose words cannot be written still
    // locks.
    let _ = lock
        .set_len(0)
        .and_then(|()| lock.write_all(words.as_bytes()));
    Ok(Writer { _lock: lock })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_naming_the_first_and_takes_the_lock_once_it_is_gone() {
        let tmp = tempfile::tempdir().unwrap();
        let first = acquire(tmp.path(), "league serve").unwrap();
        // Another open file description: as another process would be.
        let e = acquire(tmp.path(), "league round").unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "pid {}, `whistle league serve`, since ",
                std::process::id()
            )),
            "{e}"
        );
        // The refused one left the holder's words as they were.
        let words = std::fs::read_to_string(tmp.path().join(LOCK_FILE)).unwrap();
        assert!(words.contains("league serve"), "{words}");
        drop(first);
        let second = acquire(tmp.path(), "league round").unwrap();
        let words = std::fs::read_to_string(tmp.path().join(LOCK_FILE)).unwrap();
        assert!(words.contains("`whistle league round`"), "{words}");
        drop(second);
    }
}
