//! The Python package of the engine (crates/python, `whistle_engine`):
//! built from the checkout with pip (maturin) into a virtual environment
//! with OpenSpiel from PyPI and the Python kit, then its own tests run
//! (crates/python/tests: the API, OpenSpiel, the sampling bot's tournament)
//! against this build's `whistle`. Where python3 or the registry is missing
//! the test says so and passes, except under CI (`CI=true`), where it fails.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn unavailable(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why}");
    }
    eprintln!("SKIPPED: {why}");
}

fn run(cmd: &mut Command, what: &str) -> Option<String> {
    match cmd.output() {
        Ok(o) if o.status.success() => Some(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => {
            unavailable(&format!(
                "{what} failed ({}):\n{}\n{}",
                o.status,
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
            None
        }
        Err(e) => {
            unavailable(&format!("{what}: {e}"));
            None
        }
    }
}

#[test]
fn the_python_engine_builds_and_passes_its_tests() {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("py-engine-venv");
    let python = venv.join("bin/python");
    if !python.is_file()
        && run(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        )
        .is_none()
    {
        return;
    }
    let root = root();
    let installed = run(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .arg(format!("{}[test]", root.join("crates/python").display()))
            .arg(root.join("bots/python"))
            .env("CARGO_INCREMENTAL", "0"),
        "pip install ./crates/python[test] ./bots/python",
    );
    if installed.is_none() {
        return;
    }
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_whistle")).parent().unwrap();
    let out = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "crates/python/tests",
            "-q",
            "-p",
            "no:cacheprovider",
        ])
        .current_dir(&root)
        .env("WHISTLE_BIN_DIR", bin_dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                venv.join("bin").display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .expect("run pytest");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "crates/python/tests failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("passed"), "{stdout}");
    assert!(!stdout.contains("skipped"), "a test was skipped:\n{stdout}");
}
