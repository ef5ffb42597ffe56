//! A cheating student's attacks on a class's event (docs/fair-play.md), each
//! a real bot program in a folder of its own, run by a real `whistle
//! tournament`. A test passes when the attack fails (the guarantee holds);
//! an attack that works is a test marked `#[ignore = "hole: ..."]` with
//! what it measured.
//!
//! The covert channels are tried by two copies of one Python program
//! (tests/red_team/channels.py) seated at one table: `tx` sets a channel to
//! a known bit in each slot of the shared clock, `rx` measures it in the
//! middle of the slot, and says on stderr how many of the bits it read
//! right. Half right is chance; a channel that carries the bits reads them
//! (nearly) all.
//!
//! Where this machine cannot make a sandbox the runs must refuse to start
//! (fair_play.rs checks that); the tests here then have nothing to attack.

mod common;

use std::{
    collections::BTreeMap,
    path::Path,
    time::{Duration, Instant},
};

use common::{Ran, Scratch, WHISTLE, whistle};
use serde_json::Value;

const CHANNELS: &str = include_str!("red_team/channels.py");

/// Whether this machine can sandbox bots; if not, says so.
fn sandboxed() -> bool {
    let ok = whistle_sandbox::probe(Path::new(WHISTLE)).is_ok();
    if !ok {
        eprintln!("no sandbox here: nothing to attack (fair_play.rs checks the refusal)");
    }
    ok
}

/// A hostile bot: its folder `bots/NAME/` with `files`, and its command.
struct Bot<'a> {
    name: &'a str,
    files: &'a [(&'a str, &'a str)],
    command: Vec<String>,
    stdio: bool,
    extra: &'a str,
}

/// Writes the event `event/t.toml` (`head` then the bots, then `random`
/// bundled bots to fill `fill` more places) and runs it; the output is in
/// `out/`.
fn run_event(s: &Scratch, head: &str, bots: &[Bot], fill: usize, limit: Duration) -> Ran {
    std::fs::create_dir_all(s.path("event")).unwrap();
    let mut text = format!("name = \"red\"\nout = \"../out\"\n{head}\n");
    for b in bots {
        let dir = s.path(&format!("bots/{}", b.name));
        std::fs::create_dir_all(&dir).unwrap();
        for (f, body) in b.files {
            std::fs::write(dir.join(f), body).unwrap();
        }
        let command: Vec<String> = b.command.iter().map(|a| format!("{a:?}")).collect();
        text.push_str(&format!(
            "\n[[bots]]\nname = \"{}\"\ncommand = [{}]\ndir = \"../bots/{}\"\nstdio = {}\n{}\n",
            b.name,
            command.join(", "),
            b.name,
            b.stdio,
            b.extra
        ));
    }
    for i in 0..fill {
        text.push_str(&format!(
            "\n[[bots]]\nname = \"random{i}\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"random\"]\n"
        ));
    }
    let file = s.write("event/t.toml", &text);
    whistle(
        s,
        &["tournament", file.to_str().unwrap(), "--progress", "quiet"],
        limit,
    )
}

fn stderr_log(s: &Scratch, bot: &str) -> String {
    std::fs::read_to_string(s.path(&format!("out/logs/{bot}.stderr.log"))).unwrap_or_default()
}

fn results(s: &Scratch) -> Value {
    serde_json::from_str(&std::fs::read_to_string(s.path("out/results.json")).unwrap()).unwrap()
}

/// For each channel, (bits read right, bits measured).
type Read = BTreeMap<String, (u32, u32)>;

/// `tx` and `rx` (copies of channels.py, each in its own folder, gRPC bots
/// that play `random` afterwards) try `channels` at one Israeli table with
/// two bundled bots; returns, for each channel, (bits read right, bits),
/// and rx's log.
fn channel_run(name: &str, channels: &str, slot_s: &str) -> Option<(Read, String)> {
    if !sandboxed() {
        return None;
    }
    let s = Scratch::new(name);
    let bot = |role: &'static str| Bot {
        name: role,
        files: &[("channels.py", CHANNELS)],
        command: vec![
            "python3".into(),
            format!("../bots/{role}/channels.py"),
            role.into(),
            WHISTLE.into(),
            "grpc".into(),
            channels.into(),
            slot_s.into(),
        ],
        stdio: false,
        extra: "",
    };
    let r = run_event(
        &s,
        "game = \"israeli\"\nformat = \"round-robin\"\nhands = 1\nparallel = 4\n\
         [time]\nper_action_ms = 20000\nstart_timeout_ms = 30000\n",
        &[bot("tx"), bot("rx")],
        2,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let tx = stderr_log(&s, "tx");
    assert!(tx.contains("tx done"), "the sender did not finish:\n{tx}");
    let rx = stderr_log(&s, "rx");
    let mut read = BTreeMap::new();
    for line in rx.lines() {
        let Some(rest) = line.strip_prefix("CHANNEL ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        read.insert(
            f[0].to_string(),
            (f[1].parse().unwrap(), f[2].parse().unwrap()),
        );
    }
    for line in rx.lines().filter(|l| l.starts_with("CHANNEL")) {
        eprintln!("{line}");
    }
    for ch in channels.split(',') {
        let (_, n) = read.get(ch).copied().unwrap_or((0, 0));
        // A channel the receiver could not read at all (every read
        // refused, as the sandbox hides the machine's counts) is closed.
        let refused = n == 0 && rx.contains(&format!("rx {ch}: "));
        assert!(
            n >= 20 || refused,
            "channel {ch}: only {n} slots measured:\n{rx}\n{tx}"
        );
    }
    Some((read, rx))
}

/// Asserts that no channel of `read` carried the bits: fewer than 90 %
/// read right (24 fair coin flips reach that once in about 30 000 runs).
fn assert_closed(read: &Read, log: &str) {
    for (ch, (ok, n)) in read {
        if *n == 0 {
            continue;
        }
        assert!(
            ok * 10 < n * 9,
            "channel {ch} carried {ok} of {n} bits between two bots of one table:\n{log}"
        );
    }
}

#[test]
fn file_locks_shm_abstract_sockets_and_pids_carry_nothing_between_two_bots_at_one_table() {
    // flock on /etc/passwd (both can read it), a file in /dev/shm, a name
    // bound in the abstract Unix socket namespace, and the PID counter
    // (children forked by tx, seen in rx's /proc/loadavg last PID).
    let Some((read, log)) = channel_run("red-kernel-objects", "lock,shm,abstract,pidns", "0.15")
    else {
        return;
    };
    assert_closed(&read, &log);
}

#[test]
// Was a hole: tx opening 240 files in 9 processes on its 1-bits, rx read 25 of 25 bits
// in 150 ms slots and 25 of 25 in 30 ms slots through /proc/sys/fs/file-nr.
fn the_machines_open_file_count_carries_nothing_between_two_bots_at_one_table() {
    let Some((read, log)) = channel_run("red-file-nr", "filenr", "0.03") else {
        return;
    };
    assert_closed(&read, &log);
}

#[test]
// Was a hole: tx creating 2000 empty files in its own scratch folder on its 1-bits,
// rx read 25 of 25 bits in 150 ms slots through /proc/sys/fs/inode-nr.
fn the_machines_inode_count_carries_nothing_between_two_bots_at_one_table() {
    let Some((read, log)) = channel_run("red-inode-nr", "inodes", "0.15") else {
        return;
    };
    assert_closed(&read, &log);
}

#[test]
// Was a hole: tx starting 25 idle threads on its 1-bits, rx read 25 of 25 bits from
// /proc/loadavg and from sysinfo(2) in 100 ms slots.
fn the_machines_task_count_carries_nothing_between_two_bots_at_one_table() {
    let Some((read, log)) = channel_run("red-task-count", "loadavg,sysinfo", "0.1") else {
        return;
    };
    assert_closed(&read, &log);
}

/// The command lines of the machine's processes whose first two words are
/// `sleep MARKER`.
fn sleepers(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
            let words: Vec<&[u8]> = c.split(|b| *b == 0).collect();
            if words.len() >= 2 && words[0].ends_with(b"sleep") && words[1] == marker.as_bytes() {
                found.push(e.path().display().to_string());
            }
        }
    }
    found
}

/// A marker no other test uses: seconds of a sleep nobody else asks for.
fn marker(base: u32) -> String {
    format!("{}.{:06}", base, std::process::id())
}

#[test]
fn instances_at_one_table_reach_no_socket_no_notice_no_token_no_other_scratch_and_leave_nothing() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-snoop");
    // A file both instances may read (a teacher's shared data folder),
    // its access time set long ago.
    std::fs::create_dir_all(s.path("shared")).unwrap();
    let shared = s.write("shared/data.txt", "the teacher's shared data\n");
    let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(978_307_200);
    std::fs::File::options()
        .write(true)
        .open(&shared)
        .unwrap()
        .set_times(
            std::fs::FileTimes::new()
                .set_accessed(old)
                .set_modified(old),
        )
        .unwrap();
    let mark = marker(7177);
    let read = format!("read = [{:?}]", s.path("shared").display().to_string());
    let r = run_event(
        &s,
        "game = \"israeli\"\nformat = \"round-robin\"\nhands = 1\nparallel = 2\n\
         [time]\nper_action_ms = 20000\n",
        &[Bot {
            name: "snoop",
            files: &[("snoop.py", include_str!("red_team/snoop.py"))],
            command: vec![
                "python3".into(),
                "../bots/snoop/snoop.py".into(),
                mark.clone(),
                shared.display().to_string(),
            ],
            stdio: true,
            extra: &read,
        }],
        1,
        Duration::from_secs(120),
    );
    let left = sleepers(&mark);
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "snoop");
    let holes: Vec<&str> = log.lines().filter(|l| l.starts_with("HOLE")).collect();
    assert!(holes.is_empty(), "what the bot could do: {holes:?}\n{log}");
    for tried in [
        "socket-unix-stream",
        "socket-unix-dgram",
        "socket-tcp",
        "socket-udp",
        "socket-udp6",
        "socket-netlink",
        "dnotify",
        "lease",
        "get-lease",
        "get-lock",
        "inotify",
        "sethostname",
        "memfd",
        "sysv-shm",
        "sysv-sem",
        "sysv-msg",
        "posix-mq",
        "unshare-user",
        "ptrace-init",
        "shm-fill",
        "cgroup-escape",
        "token-in-proc",
        "other-scratch",
    ] {
        assert!(
            log.contains(&format!("HELD {tried}")),
            "{tried} not tried:\n{log}"
        );
    }
    // Several instances played (fewer bots than seats: one a seat), each
    // with a stderr of its own: none can read what another writes there.
    let fd2: Vec<&str> = log.lines().filter_map(|l| l.strip_prefix("FD2 ")).collect();
    let distinct: std::collections::BTreeSet<&&str> = fd2.iter().collect();
    assert!(fd2.len() >= 2, "{log}");
    assert_eq!(
        distinct.len(),
        fd2.len(),
        "instances shared a stderr pipe:\n{log}"
    );
    // Reading the shared file moved its access time for nobody.
    let atime = std::fs::metadata(&shared).unwrap().accessed().unwrap();
    assert_eq!(
        atime, old,
        "reading the shared file changed its access time"
    );
    // Nothing left: no sleeper, no scratch folder, no /dev/shm file.
    assert!(
        left.is_empty(),
        "the bot's sleeper outlived the event: {left:?}"
    );
    for home in log.lines().filter_map(|l| l.strip_prefix("SCRATCH ")) {
        assert!(!Path::new(home).exists(), "{home} is still there");
    }
    assert!(!Path::new("/dev/shm/trace").exists());
    // Every instance played its seat.
    for b in results(&s)["bots"].as_array().unwrap() {
        assert_eq!(b["forfeits"].as_u64(), Some(0), "{b}");
    }
}

#[test]
// Was a hole: the bot wrote PLANTED into the organiser's file through fd 7.
fn a_file_descriptor_whistle_inherits_does_not_reach_the_bots() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-inherited-fd");
    std::fs::create_dir_all(s.path("organiser")).unwrap();
    let notes = s.write("organiser/notes.txt", "");
    std::fs::create_dir_all(s.path("event")).unwrap();
    std::fs::create_dir_all(s.path("bots/leak")).unwrap();
    s.write(
        "bots/leak/leak.sh",
        "#!/bin/sh\n# Writes to every descriptor it was given beyond stdio.\n\
         for fd in /proc/self/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] 2>/dev/null && \
         echo \"fd $n: $(readlink $fd)\" >&2 && (echo PLANTED >&$n) 2>/dev/null; done\n\
         exec \"$1\" bot --bot random\n",
    );
    let file = s.write(
        "event/t.toml",
        &format!(
            "name = \"red\"\nout = \"../out\"\ngame = \"honeymoon\"\nhands = 1\n\
             [[bots]]\nname = \"leak\"\ncommand = [\"sh\", \"../bots/leak/leak.sh\", {w:?}]\n\
             dir = \"../bots/leak\"\n\
             [[bots]]\nname = \"random\"\ncommand = [\"whistle\", \"bot\", \"--bot\", \"random\"]\n",
            w = WHISTLE
        ),
    );
    // The organiser's shell holds fd 7 open on its notes when it starts whistle.
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" tournament \"$1\" --progress quiet 7>>\"$2\"")
        .arg(WHISTLE)
        .arg(&file)
        .arg(&notes)
        .current_dir(&s.dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = stderr_log(&s, "leak");
    let planted = std::fs::read_to_string(&notes).unwrap();
    assert!(
        planted.is_empty(),
        "the bot wrote into the organiser's file: {planted:?}\n{log}"
    );
}

/// The seed-searching bot's verdict in an event with `seed_line`.
fn seed_search(name: &str, seed_line: &str) -> Option<(String, Ran)> {
    if !sandboxed() {
        return None;
    }
    let s = Scratch::new(name);
    let r = run_event(
        &s,
        &format!(
            "game = \"israeli\"\nformat = \"round-robin\"\nhands = 1\nparallel = 4\n{seed_line}\n\
             [time]\nper_action_ms = 60000\n"
        ),
        &[Bot {
            name: "seeker",
            files: &[
                ("seedsearch.py", include_str!("red_team/seedsearch.py")),
                ("dealing.py", include_str!("../../../docs/dealing.py")),
            ],
            command: vec![
                "python3".into(),
                "../bots/seeker/seedsearch.py".into(),
                "120".into(),
                "4".into(),
            ],
            stdio: true,
            extra: "",
        }],
        3,
        Duration::from_secs(180),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "seeker");
    let verdict = log
        .lines()
        .find(|l| l.starts_with("FOUND") || l.starts_with("NOTFOUND"))
        .unwrap_or_else(|| panic!("the seeker never searched:\n{log}"))
        .to_string();
    Some((verdict, r))
}

#[test]
fn a_bot_cannot_find_a_drawn_seed_from_its_hand_but_finds_a_small_number_it_was_warned_of() {
    // The organiser gives no seed: 256 bits drawn, nothing to search.
    let Some((drawn, _)) = seed_search("red-seed-drawn", "") else {
        return;
    };
    eprintln!("drawn seed: {drawn}");
    assert!(drawn.starts_with("NOTFOUND"), "{drawn}");
    // The control: a small number is found from one hand (the attack works,
    // which is why the runner warns of it).
    let (numbered, r) = seed_search("red-seed-number", "seed = 97").unwrap();
    eprintln!("seed = 97: {numbered}");
    assert!(numbered.starts_with("FOUND seed=97"), "{numbered}");
    assert!(
        r.stderr.to_lowercase().contains("search"),
        "no warning:\n{}",
        r.stderr
    );
}

#[test]
fn eight_spinning_processes_get_no_more_than_the_bots_cpus_share() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-hog");
    let r = run_event(
        &s,
        "game = \"honeymoon\"\nhands = 1\n[time]\nper_action_ms = 20000\n",
        &[Bot {
            name: "hog",
            files: &[("hog.py", include_str!("red_team/hog.py"))],
            command: vec!["python3".into(), "../bots/hog/hog.py".into(), "3".into()],
            stdio: true,
            extra: "limits = { cpus = 0.5 }",
        }],
        1,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "hog");
    let share: f64 = log
        .lines()
        .find_map(|l| l.strip_prefix("SHARE "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("the hog said nothing:\n{log}"));
    eprintln!("eight spinners under cpus = 0.5: {share} processors");
    // Half a processor, with the quota's rounding and one period's slack.
    assert!(
        share > 0.05 && share <= 0.65,
        "eight spinners got {share} processors:\n{log}"
    );
}

#[test]
fn a_bot_that_never_answers_and_ignores_sigterm_neither_stalls_the_event_nor_outlives_it() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-staller");
    let mark = marker(7178);
    let started = Instant::now();
    let r = run_event(
        &s,
        "game = \"honeymoon\"\nhands = 2\n\
         [time]\nper_action_ms = 200\ntime_bank_ms = 200\nstart_timeout_ms = 5000\n\
         [faults]\nmax_faults = 2\n",
        &[Bot {
            name: "staller",
            files: &[("staller.sh", include_str!("red_team/staller.sh"))],
            command: vec![
                "sh".into(),
                "../bots/staller/staller.sh".into(),
                mark.clone(),
            ],
            stdio: true,
            extra: "",
        }],
        1,
        Duration::from_secs(90),
    );
    let took = started.elapsed();
    let left = sleepers(&mark);
    eprintln!("the event with the staller took {took:?}");
    assert!(
        r.status.code() == Some(0) || r.status.code() == Some(3),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // Two late answers, then its seat forfeits: the event goes on without it.
    assert!(took < Duration::from_secs(30), "the event took {took:?}");
    let res = results(&s);
    let staller = res["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "staller")
        .unwrap()
        .clone();
    assert!(staller["forfeits"].as_u64().unwrap_or(0) > 0, "{staller}");
    assert!(left.is_empty(), "its child outlived the event: {left:?}");
}

#[test]
fn a_bot_opening_a_thousand_idle_connections_floods_neither_the_referee_nor_the_terminal() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-flood");
    let r = run_event(
        &s,
        "game = \"honeymoon\"\nhands = 1\n[time]\nper_action_ms = 20000\nstart_timeout_ms = 40000\n",
        &[Bot {
            name: "flood",
            files: &[("flood.py", include_str!("red_team/flood.py"))],
            command: vec![
                "python3".into(),
                "../bots/flood/flood.py".into(),
                WHISTLE.into(),
                "20".into(),
                "50".into(),
                "11".into(),
            ],
            stdio: false,
            extra: "",
        }],
        1,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "flood");
    let held: u32 = log
        .lines()
        .filter_map(|l| l.strip_prefix("held "))
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert!(held >= 500, "only {held} connections held:\n{log}");
    // Each was closed at the handshake timeout; a few are said one by one,
    // the rest counted (before: one line each, 1114 lines for 8708).
    let said = r
        .stderr
        .lines()
        .filter(|l| l.contains("handshake timeout"))
        .count();
    eprintln!("{held} idle connections, {said} lines on the terminal");
    assert!(
        (1..=10).contains(&said),
        "{said} lines for {held} connections:\n{}",
        r.stderr
    );
    for b in results(&s)["bots"].as_array().unwrap() {
        assert!(b["faults"].as_object().unwrap().is_empty(), "{b}");
        assert_eq!(b["forfeits"].as_u64(), Some(0), "{b}");
    }
}

#[test]
fn a_bot_can_neither_retire_another_nor_make_a_table_on_the_referee() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-admin");
    let r = run_event(
        &s,
        "game = \"honeymoon\"\nhands = 1\n[time]\nper_action_ms = 20000\n",
        &[Bot {
            name: "admin",
            files: &[("admin.sh", include_str!("red_team/admin.sh"))],
            command: vec![
                "sh".into(),
                "../bots/admin/admin.sh".into(),
                WHISTLE.into(),
                "random0".into(),
            ],
            stdio: false,
            extra: "",
        }],
        1,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "admin");
    let holes: Vec<&str> = log.lines().filter(|l| l.starts_with("HOLE")).collect();
    assert!(holes.is_empty(), "{holes:?}\n{log}");
    assert_eq!(
        log.lines().filter(|l| l.starts_with("HELD")).count(),
        8,
        "{log}"
    );
    // The victim played every match it was given.
    for b in results(&s)["bots"].as_array().unwrap() {
        assert_eq!(b["forfeits"].as_u64(), Some(0), "{b}");
        assert!(b["hands"].as_u64().unwrap() > 0, "{b}");
    }
}

#[test]
fn a_bot_holding_play_streams_without_hello_starves_no_other_bot_and_floods_no_terminal() {
    if !sandboxed() {
        return;
    }
    // Every sandboxed bot reaches the referee through one Unix socket, so
    // the referee's bound on streams waiting for their Hello (256 an
    // address) is shared by all of them: the flooder keeps it full.
    let s = Scratch::new("red-h2flood");
    let r = run_event(
        &s,
        "game = \"honeymoon\"\nhands = 1\nparallel = 4\nformat = \"duplicate\"\n\
         [time]\nper_action_ms = 2000\nstart_timeout_ms = 20000\n",
        &[Bot {
            name: "flood",
            files: &[("h2flood.py", include_str!("red_team/h2flood.py"))],
            command: vec![
                "python3".into(),
                "../bots/flood/h2flood.py".into(),
                WHISTLE.into(),
                "300".into(),
                "3".into(),
            ],
            stdio: false,
            extra: "",
        }],
        1,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = stderr_log(&s, "flood");
    let opened: u64 = log
        .lines()
        .filter_map(|l| l.strip_prefix("opened "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u64>().ok())
        .sum();
    assert!(
        opened >= 1000,
        "the flooder opened only {opened} streams:\n{log}"
    );
    let said = r
        .stderr
        .lines()
        .filter(|l| l.contains("play refused"))
        .count();
    eprintln!("{opened} Play streams without Hello, {said} lines on the terminal");
    // Before: one line a refused stream (127 394 lines in 15 s).
    assert!(said <= 20, "{said} lines for {opened} streams");
    // The other bots played every seat they were given.
    for b in results(&s)["bots"].as_array().unwrap() {
        if b["name"] != "flood" {
            assert!(b["faults"].as_object().unwrap().is_empty(), "{b}");
            assert_eq!(b["forfeits"].as_u64(), Some(0), "{b}");
        }
    }
}

#[test]
fn instances_writing_megabytes_to_stderr_at_once_keep_one_mib_of_log() {
    if !sandboxed() {
        return;
    }
    let s = Scratch::new("red-chatter");
    // Fewer bots than seats: an instance a seat, four at once.
    let r = run_event(
        &s,
        "game = \"israeli\"\nhands = 1\nparallel = 2\n[time]\nper_action_ms = 20000\n",
        &[Bot {
            name: "chatter",
            files: &[("chatter.py", include_str!("red_team/chatter.py"))],
            command: vec!["python3".into(), "../bots/chatter/chatter.py".into()],
            stdio: true,
            extra: "",
        }],
        1,
        Duration::from_secs(120),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    let log = std::fs::read(s.path("out/logs/chatter.stderr.log")).unwrap();
    let notes = String::from_utf8_lossy(&log)
        .matches("stderr log reached its size cap")
        .count();
    eprintln!("{} bytes of log, {notes} note(s) of the cap", log.len());
    // 1 MiB and the note (before: 4 MiB and 4 notes, 1 MiB an instance).
    assert!(log.len() <= (1 << 20) + 100, "{} bytes of log", log.len());
    assert_eq!(notes, 1);
}
