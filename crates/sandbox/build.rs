//! Digests the crate's sources into `WHISTLE_SANDBOX_BUILD` (the crate's
//! `BUILD`): a launcher binary answers it, so that `whistle` starts its
//! sandboxes through a separate launcher only when both were built from the
//! same steps.

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    path::{Path, PathBuf},
};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.toml");
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    all.push(PathBuf::from("Cargo.toml"));
    all.sort();
    let mut h = DefaultHasher::new();
    for p in &all {
        p.hash(&mut h);
        std::fs::read(p).unwrap_or_default().hash(&mut h);
    }
    println!(
        "cargo:rustc-env=WHISTLE_SANDBOX_BUILD={}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        h.finish()
    );
}
