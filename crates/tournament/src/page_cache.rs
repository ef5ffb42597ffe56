//! The page cache of a bot's folder, dropped when one of its instances is
//! gone (docs/fair-play.md, "One view of a deal per bot").
//!
//! Every sandbox shares the machine's page cache: which pages of a file are
//! cached is seen by any process that times its reads of them. Fresh
//! instances of one bot, one after the other on the same deals, passed
//! their hands that way through a large file of their folder (one instance
//! dropping pages with `posix_fadvise`, reading some back, the next timing
//! one-byte reads). The sandbox's filter makes dropping pages from inside
//! a no-op; what an instance leaves cached in its folder is dropped here,
//! from outside, once the instance is gone and before another instance of
//! the bot may see the same deals: each starts with its folder out of the
//! cache (but for pages other live processes map).
//!
//! Not dropped: the bot's `read` paths and the system's files (shared with
//! every other program; reading a page still caches it there, a channel
//! only a fresh machine per instance closes), and the folder of a bot that
//! is whistle itself (`whistle bot`: whistle's own code, and the bundled
//! bot binary beside it started in its stead), lies in the
//! system's paths, or runs unsandboxed (trusted, and able to drop pages
//! itself).

use std::{
    fs,
    os::unix::fs::OpenOptionsExt,
    path::{Path, PathBuf},
};

use nix::fcntl::{PosixFadviseAdvice, posix_fadvise};

use crate::procs::{self, Launch};

/// Whether the folder of `l`'s bot is dropped after each instance: a
/// sandboxed instance of a bot that is not whistle itself, whose folder is
/// not one of the system's (a system program's: shared with every program).
fn applies(l: &Launch) -> bool {
    if !l.once || l.sandbox.is_none() || whistle_sandbox::in_system_paths(&l.dir) {
        return false;
    }
    let Some(first) = l.command.first() else {
        return false;
    };
    let program = procs::program(first, &l.dir);
    let me = std::env::current_exe().ok();
    !(first == "whistle" || me.is_some_and(|m| same_file(&m, &program)))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Once an instance of `l`'s bot is gone: drops its folder's files from
/// the page cache (see the module doc).
pub(crate) async fn after_instance(l: &Launch) {
    if !applies(l) {
        return;
    }
    let dir = l.dir.clone();
    let _ = tokio::task::spawn_blocking(move || drop_folder(&dir)).await;
}

/// Drops every regular file under `dir` (links not followed) from the page
/// cache, but for pages a live process maps. Returns how many files it
/// dropped.
pub fn drop_folder(dir: &Path) -> usize {
    let mut dropped = 0;
    let mut folders: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(kind) = e.file_type() else {
                continue;
            };
            if kind.is_dir() {
                folders.push(e.path());
            } else if kind.is_file() && drop_file(&e.path()) {
                dropped += 1;
            }
        }
    }
    dropped
}

fn drop_file(path: &Path) -> bool {
    let Ok(f) = fs::File::options()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK | nix::libc::O_NOATIME)
        .open(path)
        .or_else(|_| {
            // O_NOATIME needs the file's owner.
            fs::File::options()
                .read(true)
                .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK)
                .open(path)
        })
    else {
        return false;
    };
    posix_fadvise(&f, 0, 0, PosixFadviseAdvice::POSIX_FADV_DONTNEED).is_ok()
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::*;

    /// Bytes of `file` in the page cache (`fincore`).
    fn cached(file: &Path) -> Option<u64> {
        let o = Command::new("fincore")
            .args(["--bytes", "--noheadings", "--output", "RES"])
            .arg(file)
            .output()
            .ok()?;
        String::from_utf8_lossy(&o.stdout).trim().parse().ok()
    }

    #[test]
    fn a_folder_read_into_the_page_cache_is_dropped_from_it_links_left_alone() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("bot");
        fs::create_dir_all(dir.join("deep/er")).unwrap();
        let outside = root.path().join("outside.bin");
        let files = [
            dir.join("a.bin"),
            dir.join("deep/er/b.bin"),
            outside.clone(),
        ];
        for f in &files {
            fs::write(f, vec![1u8; 1 << 20]).unwrap();
        }
        std::os::unix::fs::symlink(&outside, dir.join("link")).unwrap();
        Command::new("sync").status().unwrap();
        for f in &files {
            let _ = fs::read(f).unwrap();
        }
        let Some(before) = cached(&files[0]) else {
            eprintln!("no fincore here: nothing to measure");
            return;
        };
        assert!(before > 0);
        assert_eq!(drop_folder(&dir), 2);
        assert_eq!(cached(&files[0]), Some(0));
        assert_eq!(cached(&files[1]), Some(0));
        // A link out of the folder is not followed.
        assert_eq!(cached(&outside), Some(1 << 20));
    }
}
