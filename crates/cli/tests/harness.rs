//! What the other test files rely on from `common`: a process a test starts
//! does not outlive it, and the event builder writes the file it is told.

mod common;

use std::{
    path::Path,
    process::{Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

use common::{Event, Killed, Scratch, SpawnKilled};

/// Whether process `pid` still exists (a zombie not yet reaped counts).
fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Starts `command` under a guard in a thread that then panics, as a
/// failing test would; returns the process's id once the thread is over.
fn started_by_a_panicking_test(mut command: Command) -> u32 {
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn_killed();
        tx.send(child.id()).unwrap();
        // Give the shell time to set its trap.
        std::thread::sleep(Duration::from_millis(300));
        panic!("a failing test");
    });
    let pid = rx.recv().unwrap();
    assert!(thread.join().is_err(), "the thread panicked");
    pid
}

#[test]
fn a_process_started_by_a_test_that_panics_is_stopped_and_reaped() {
    let pid = started_by_a_panicking_test({
        let mut c = Command::new("sleep");
        c.arg("120");
        c
    });
    assert!(!exists(pid), "process {pid} outlived the test");
}

#[test]
fn a_process_that_ignores_sigterm_is_killed_after_the_grace() {
    let start = Instant::now();
    let pid = started_by_a_panicking_test({
        let mut c = Command::new("sh");
        c.args(["-c", "trap '' TERM; while :; do sleep 0.1; done"]);
        c
    });
    assert!(!exists(pid), "process {pid} outlived the test");
    assert!(
        start.elapsed() >= Killed::GRACE,
        "killed before the grace: {:?}",
        start.elapsed()
    );
}

#[test]
fn a_process_already_waited_for_is_left_alone() {
    let mut child = Command::new("true").spawn_killed();
    assert!(child.wait().unwrap().success());
    drop(child);
    let out = Command::new("sh")
        .args(["-c", "echo said"])
        .stdout(Stdio::piped())
        .spawn_killed()
        .wait_with_output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "said\n");
}

#[test]
fn the_event_builder_writes_the_file_it_is_told() {
    let s = Scratch::new("harness-event");
    let path = Event::new("ev", "israeli")
        .and("seed = 3\nhands = 1\n")
        .calm()
        .bundled("h", "heuristic")
        .bot("r", &["--bot", "random", "--seed", "1"])
        .command("script", &["bots/run.sh", "--seed", "5"])
        .remote("far", "bot-far-secret")
        .write(&s, "t.toml");
    assert_eq!(
        std::fs::read_to_string(path).unwrap(),
        "name = \"ev\"\ngame = \"israeli\"\nseed = 3\nhands = 1\n\
         [time]\nper_action_ms = 20000\ntime_bank_ms = 60000\n\
         \n[[bots]]\nname = \"h\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"heuristic\"]\n\
         \n[[bots]]\nname = \"r\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"random\", \"--seed\", \"1\"]\n\
         \n[[bots]]\nname = \"script\"\ncommand = [\"bots/run.sh\", \"--seed\", \"5\"]\n\
         \n[[bots]]\nname = \"far\"\nremote = true\ntoken = \"bot-far-secret\"\n"
    );
}
