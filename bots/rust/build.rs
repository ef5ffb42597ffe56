//! Digests the sources of what `client::bot_main` runs into
//! `WHISTLE_BOT_BUILD` (`client::BUILD`): this kit, the policies, the
//! protocol, the rules, and the workspace's lock file. The small bundled-bot
//! binary installed beside `whistle` answers it, so that a tournament starts
//! `whistle bot` through that binary only when both were built from the same
//! sources.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    path::{Path, PathBuf},
};

/// What the bundled bots' behaviour is built from, relative to this crate.
const SOURCES: [&str; 9] = [
    "src",
    "Cargo.toml",
    "../policies/src",
    "../policies/Cargo.toml",
    "../../crates/protocol/src",
    "../../crates/protocol/build.rs",
    "../../crates/protocol/Cargo.toml",
    "../../crates/rules/src",
    "../../crates/rules/Cargo.toml",
];

/// Further inputs: the protocol's definition and the locked versions.
const MORE: [&str; 2] = ["../../proto", "../../Cargo.lock"];

fn files(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_file() {
        out.push(p.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(p) else {
        return;
    };
    for e in entries.flatten() {
        files(&e.path(), out);
    }
}

fn main() {
    let mut all = Vec::new();
    for p in SOURCES.iter().chain(&MORE) {
        println!("cargo:rerun-if-changed={p}");
        files(Path::new(p), &mut all);
    }
    all.sort();
    let mut h = DefaultHasher::new();
    for p in &all {
        p.hash(&mut h);
        std::fs::read(p).unwrap_or_default().hash(&mut h);
    }
    println!(
        "cargo:rustc-env=WHISTLE_BOT_BUILD={}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        h.finish()
    );
}
