//! The page cache between fresh instances of one bot (docs/fair-play.md,
//! "One view of a deal per bot"): what an instance leaves cached in its
//! folder is dropped once it is gone, so the next instance on the same
//! deals starts with its folder out of the cache. Watched from outside with
//! `fincore` during a real duplicate event.

mod common;

use std::{
    path::Path,
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use common::{Event, Scratch, WHISTLE, whistle};

/// A stdio bot that reads the whole of `chan.bin` in its folder at its
/// first request, then holds that request 400 ms.
const READER: &str = r#"import os, sys, time
HERE = os.path.dirname(os.path.abspath(__file__))
first = True
for line in sys.stdin:
    if '"request"' not in line:
        continue
    if first:
        first = False
        with open(os.path.join(HERE, "chan.bin"), "rb") as f:
            while f.read(1 << 16):
                pass
        sys.stderr.write("read\n"); sys.stderr.flush()
        time.sleep(0.4)
    print(0, flush=True)
"#;

/// Bytes of `file` in the page cache.
fn cached(file: &Path) -> Option<u64> {
    let o = Command::new("fincore")
        .args(["--bytes", "--noheadings", "--output", "RES"])
        .arg(file)
        .output()
        .ok()?;
    String::from_utf8_lossy(&o.stdout).trim().parse().ok()
}

#[test]
fn each_instance_of_a_bot_starts_with_its_folder_out_of_the_page_cache() {
    if whistle_sandbox::probe(Path::new(WHISTLE)).is_err() {
        eprintln!("no sandbox here: nothing to test");
        return;
    }
    let s = Scratch::new("fair-cache");
    std::fs::create_dir_all(s.path("event")).unwrap();
    std::fs::create_dir_all(s.path("bots/reader")).unwrap();
    s.write("bots/reader/reader.py", READER);
    let chan = s.path("bots/reader/chan.bin");
    std::fs::write(&chan, vec![5u8; 4 << 20]).unwrap();
    Command::new("sync").status().unwrap();
    if cached(&chan).is_none() {
        eprintln!("no fincore here: nothing to measure");
        return;
    }
    whistle_tournament::page_cache::drop_folder(&s.path("bots/reader"));
    let file = Event::with(
        r#"name = "cache"
game = "israeli"
seed = 7
format = "duplicate"
seatings = "rotations"
hands = 1
parallel = 1
out = "../out"

[time]
per_action_ms = 5000
time_bank_ms = 20000
"#,
    )
    .command_with(
        "reader",
        &["python3", "../bots/reader/reader.py"],
        "dir = \"../bots/reader\"\nstdio = true\n",
    )
    .bundled("random", "random")
    .bundled("first", "first")
    .bundled("heuristic", "heuristic")
    .write(&s, "event/t.toml");
    // Watch the file's page cache while the event plays: how often it
    // went from cached to not.
    let done = Arc::new(AtomicBool::new(false));
    let watch = {
        let (done, chan) = (done.clone(), chan.clone());
        std::thread::spawn(move || {
            let (mut states, mut last) = (Vec::new(), None);
            while !done.load(Ordering::Relaxed) {
                let now = cached(&chan).unwrap_or(0) > 0;
                if last != Some(now) {
                    states.push(now);
                    last = Some(now);
                }
                std::thread::sleep(Duration::from_millis(15));
            }
            states
        })
    };
    let r = whistle(
        &s,
        &["tournament", file.to_str().unwrap()],
        Duration::from_secs(300),
    );
    done.store(true, Ordering::Relaxed);
    let states = watch.join().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = std::fs::read_to_string(s.path("out/logs/reader.stderr.log")).unwrap_or_default();
    // Four rotations: four instances, each read the whole file.
    assert_eq!(log.matches("read\n").count(), 4, "{log}");
    // The last instance read it, and it is out of the cache again.
    assert_eq!(
        cached(&chan),
        Some(0),
        "the folder stayed cached after the event"
    );
    let drops = states.windows(2).filter(|w| w[0] && !w[1]).count();
    assert!(
        drops >= 3,
        "the file went out of the cache {drops} times between four instances: {states:?}"
    );
}
