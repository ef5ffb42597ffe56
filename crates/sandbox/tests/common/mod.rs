//! What the sandbox's test files share: the launcher they start and the
//! modes this machine offers.

use std::{
    path::Path,
    process::{Child, Stdio},
};

use whistle_sandbox::{Mode, Spec, in_own_pid_namespace, probe};

/// The crate's own launcher binary.
pub const LAUNCHER: &str = env!("CARGO_BIN_EXE_whistle-sandbox");

/// The modes to test here; none (and a note) where no sandbox can be made.
pub fn modes() -> Vec<Mode> {
    match probe(Path::new(LAUNCHER)) {
        Ok((_, support)) => {
            let mut m = Vec::new();
            if support.namespaces {
                m.push(Mode::Namespaces);
            }
            if support.landlock_abi >= 6 {
                m.push(Mode::Landlock);
            }
            m
        }
        Err(e) => {
            eprintln!("no sandbox on this machine, nothing to test: {e}");
            Vec::new()
        }
    }
}

/// Compiles `tests/hostile/NAME.c` with gcc (and `flags`) into `out`.
#[allow(dead_code)]
pub fn compile(name: &str, flags: &[&str], out: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hostile")
        .join(format!("{name}.c"));
    let o = std::process::Command::new("gcc")
        .args(["-O1"])
        .args(flags)
        .arg("-o")
        .arg(out)
        .arg(&src)
        .output()
        .expect("gcc runs (it is the linker of this workspace too)");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Runs `start`, which starts the launcher of a sandbox in `mode`, as
/// whistle's runner does: in namespaces, run as root, the launcher is PID 1
/// of a PID namespace of its own and its sandbox's init too. (filter.rs
/// starts the launcher with `Spec::command` alone: the launcher then makes
/// the PID namespace and starts init itself, the way of an ordinary user
/// and of `whistle check-bot`.)
#[allow(dead_code)]
pub fn launch<T>(mode: Mode, start: impl FnOnce() -> T) -> T {
    if mode == Mode::Namespaces {
        in_own_pid_namespace(start)
    } else {
        start()
    }
}

/// `spec` started through the launcher ([`launch`]), its stdin empty, its
/// stdout and stderr piped (read them with `wait_with_output`).
#[allow(dead_code)]
pub fn start_piped(spec: &Spec) -> Child {
    launch(spec.mode, || {
        spec.command(Path::new(LAUNCHER))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    })
    .unwrap()
}
