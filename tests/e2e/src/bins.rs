//! The workspace binaries the tests run: `whistle` and `whistle-bot`.
//!
//! A test binary lives in `<target-dir>/<profile-dir>/deps/`. The first call
//! to [`workspace_bin`] in a test process runs
//!
//! ```text
//! cargo build --workspace --bins --profile <profile> --target-dir <target-dir>
//! ```
//!
//! with the cargo that built the test, so the binaries match the sources
//! under test and the profile of the run (`debug` is the `dev` profile; any
//! other directory name is its profile's name). The selection is the one
//! `.ci/run` builds the binaries with, so both share one set of artifacts
//! rather than two feature sets' worth on disk. Cargo does nothing when they
//! are fresh, and releases its build lock before running tests, so the nested
//! build does not block. `WHISTLE_E2E_BIN_DIR` names a directory of prebuilt
//! binaries instead (for example when cross-compiling with `--target`, where
//! the layout is `<target-dir>/<triple>/<profile-dir>`).

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
    sync::OnceLock,
};

/// The path of the workspace binary `name` (`whistle` or `whistle-bot`),
/// built and up to date.
///
/// # Panics
/// If the build fails (with cargo's output in the message).
pub fn workspace_bin(name: &str) -> PathBuf {
    static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let dir = DIR
        .get_or_init(build)
        .as_ref()
        .unwrap_or_else(|e| panic!("cannot build the workspace binaries: {e}"));
    let path = dir.join(format!("{name}{}", env::consts::EXE_SUFFIX));
    assert!(path.is_file(), "{} does not exist", path.display());
    path
}

fn build() -> Result<PathBuf, String> {
    if let Some(dir) = env::var_os("WHISTLE_E2E_BIN_DIR") {
        return Ok(PathBuf::from(dir));
    }
    let exe = env::current_exe().map_err(|e| e.to_string())?;
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("unexpected test binary path {}", exe.display()))?;
    let target_dir = profile_dir
        .parent()
        .ok_or_else(|| format!("unexpected test binary path {}", exe.display()))?;
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev".to_string(),
        Some(other) => other.to_string(),
        None => {
            return Err(format!(
                "unexpected profile directory {}",
                profile_dir.display()
            ));
        }
    };
    let cargo = env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(cargo)
        .current_dir(&workspace)
        .args(["build", "--workspace", "--bins"])
        .arg("--profile")
        .arg(&profile)
        .arg("--target-dir")
        .arg(target_dir)
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo build failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(profile_dir.to_path_buf())
}
