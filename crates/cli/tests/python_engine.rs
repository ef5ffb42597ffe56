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
    check_bot_passes_every_kit_example(&venv, &root);
}

/// Every example of the Python kit (bots/python/examples/*.py, the
/// sampling bot with the engine among them) passes `whistle check-bot`
/// in every game, run with this environment's Python as a student would.
fn check_bot_passes_every_kit_example(venv: &Path, root: &Path) {
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root.join("bots/python/examples"))
        .expect("the kit's examples")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 3, "{examples:?}");
    for example in examples {
        let out = Command::new(env!("CARGO_BIN_EXE_whistle"))
            .args(["check-bot", "--hands", "1", "--read"])
            .arg(venv)
            .arg("--")
            .arg(venv.join("bin/python"))
            .arg(&example)
            .current_dir(root)
            .output()
            .expect("run whistle check-bot");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && !stdout.contains("FAIL"),
            "{}:\n{stdout}\n{}",
            example.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        for game in ["israeli", "honeymoon", "illustrated", "yogi", "oneonta"] {
            assert!(
                stdout.contains(&format!("PASS {game}: legal answers:")),
                "{}:\n{stdout}",
                example.display()
            );
        }
    }
}
