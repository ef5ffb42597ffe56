//! End-to-end tests of `whistle tournament` and `whistle merge`: the real
//! binary, real bot processes (`whistle bot ...`, started by the runner with
//! the launch contract), real gRPC on loopback, output folders in scratch
//! directories under Cargo's target dir.
//!
//! Every tournament here is small (one to four hands per match, several
//! tables at once) so that the whole file runs in well under two minutes in
//! a debug build on two cores. Every wait is time-boxed.
//!
//! Timings are the only thing allowed to differ between two runs of the same
//! file: `mean_ms`/`max_ms` in results.json, and `ms` in match logs (with
//! `prev`, the SHA-256 chain over each previous line, which covers those
//! `ms` values).

use std::{
    collections::BTreeMap,
    path::Path,
    process::{Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

mod common;

use common::{
    CALM, Event, Killed, Ran, Scratch, SpawnKilled, WHISTLE, bot_stats, whistle, whistle_ok,
};

/// Starts `whistle tournament FILE --out OUT --progress PROGRESS` in `s`, in
/// the background, its stderr to `stderr`.
fn spawn_tournament(s: &Scratch, file: &str, out: &str, progress: &str, stderr: Stdio) -> Killed {
    Command::new(WHISTLE)
        .args(["tournament", file, "--out", out, "--progress", progress])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn_killed()
}

/// A `[[bots]]` entry playing `whistle bot ARGS`.
fn bot(name: &str, args: &[&str]) -> String {
    Event::with("").bot(name, args).text().to_string()
}

/// Runs `t.toml` in `s` into `out` without progress: what it printed, and
/// its results.json.
fn run_quietly(s: &Scratch) -> (Ran, Value) {
    let ran = whistle_ok(
        s,
        &[
            "tournament",
            "t.toml",
            "--out",
            "out",
            "--progress",
            "quiet",
        ],
    );
    (ran, results(&s.path("out")))
}

/// Removes every `keys` entry from every object in `v`.
fn strip(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(m) => {
            for k in keys {
                m.remove(*k);
            }
            m.values_mut().for_each(|x| strip(x, keys));
        }
        Value::Array(a) => a.iter_mut().for_each(|x| strip(x, keys)),
        _ => {}
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// results.json without its timing fields.
fn results(out: &Path) -> Value {
    let mut v = read_json(&out.join("results.json"));
    strip(&mut v, &["mean_ms", "max_ms"]);
    v
}

/// Every match log of `out` (file name → parsed lines), as written.
fn raw_logs(out: &Path) -> BTreeMap<String, Vec<Value>> {
    let mut logs = BTreeMap::new();
    for e in std::fs::read_dir(out.join("matches")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let lines = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            .collect();
        logs.insert(p.file_name().unwrap().to_string_lossy().into_owned(), lines);
    }
    logs
}

/// Every match log of `out` without timings (`ms`, and `prev`, which hashes
/// lines holding `ms`).
fn logs(out: &Path) -> BTreeMap<String, Vec<Value>> {
    let mut logs = raw_logs(out);
    for lines in logs.values_mut() {
        lines.iter_mut().for_each(|l| strip(l, &["ms", "prev"]));
    }
    logs
}

/// Checks a finished match log's structure: a header, `hands` hands with
/// deal indices 0, 1, 2 ..., and the end record; nothing else.
fn check_structure(name: &str, lines: &[Value], hands: u64) {
    assert_eq!(
        lines.first().map(|l| &l["type"]),
        Some(&"header".into()),
        "{name}"
    );
    assert_eq!(
        lines.len() as u64,
        hands + 2,
        "{name}: a header, {hands} hands and an end"
    );
    for (i, l) in lines[1..lines.len() - 1].iter().enumerate() {
        assert_eq!(l["type"], "hand", "{name} line {}", i + 2);
        assert_eq!(l["deal"], i as u64, "{name}: deals are consecutive");
    }
    assert_eq!(lines.last().unwrap()["type"], "end", "{name}");
}

/// Live processes whose working directory is `dir` (bot processes run in the
/// tournament file's folder, which is unique to each test).
fn processes_in(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        let Ok(cwd) = std::fs::read_link(e.path().join("cwd")) else {
            continue;
        };
        let state = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let zombie = state
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if cwd == dir && !zombie {
            let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            found.push(format!(
                "{pid}: {}",
                String::from_utf8_lossy(&cmd).replace('\0', " ")
            ));
        }
    }
    found
}

/// Waits (at most `limit`) until no process runs in `dir`; returns the ones left.
fn wait_for_no_processes_in(dir: &Path, limit: Duration) -> Vec<String> {
    let started = Instant::now();
    loop {
        let left = processes_in(dir);
        if left.is_empty() || started.elapsed() > limit {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A bot process that crashes in the middle of a match (`whistle bot
/// --crash-after N` exits abruptly when its N+1st decision is due): the
/// tournament still completes; the crashed bot's matches in progress end
/// with its seat faulted `absent` and forfeited (in the logs and in the
/// results); the runner starts it again and the new process plays every
/// later match itself, without faults; its stderr log holds the crash; and
/// no bot process is left running afterwards.
#[test]
fn a_crashing_bot_forfeits_its_matches_in_progress_and_plays_on_after_a_restart() {
    let s = Scratch::new("tournament-crash");
    // 16 matches of one hand, two at a time; the crasher takes about 16
    // decisions a match, so it crashes around the tenth match, and the
    // restarted process needs fewer than 170 decisions for the rest.
    Event::with(
        "name = \"crash\"\ngame = \"israeli\"\nseed = 7\nhands = 1\nrounds = 4\nparallel = 2\n\
         [time]\nper_action_ms = 20000\ntime_bank_ms = 0\nreconnect_grace_ms = 300\n\
         start_timeout_ms = 20000\n[faults]\nmax_faults = 3\n",
    )
    .bot(
        "crasher",
        &["--bot", "random", "--seed", "3", "--crash-after", "170"],
    )
    .bot("heuristic", &["--bot", "heuristic"])
    .bot("random", &["--bot", "random", "--seed", "4"])
    .bot("first", &["--bot", "first"])
    .write(&s, "crash.toml");

    let r = whistle_ok(
        &s,
        &[
            "tournament",
            "crash.toml",
            "--out",
            "out",
            "--progress",
            "plain",
        ],
    );
    assert!(
        r.stdout
            .contains("bot processes that ended during the run (see their stderr logs): crasher"),
        "{}",
        r.stdout
    );
    let out = s.path("out");
    let res = results(&out);
    let matches = res["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 16, "every match finished");
    assert!(matches.iter().all(|m| m["hands"] == 1));

    let crasher = bot_stats(&res, "crasher");
    let forfeits = crasher["forfeits"].as_u64().unwrap();
    assert!(
        (1..=2).contains(&forfeits),
        "the matches in progress (at most `parallel`) are forfeited: {crasher}"
    );
    assert!(
        crasher["faults"]["absent"].as_u64().unwrap() >= forfeits,
        "{crasher}"
    );
    assert_eq!(crasher["hands"], 16, "forfeited hands still count");
    for other in ["heuristic", "random", "first"] {
        let b = bot_stats(&res, other);
        assert_eq!(b["forfeits"], 0, "{b}");
        assert_eq!(b["faults"], serde_json::json!({}), "{b}");
    }

    // The logs say the same, seat by seat.
    let logs = raw_logs(&out);
    let mut last_forfeit = None;
    for (name, lines) in &logs {
        check_structure(name, lines, 1);
        let header = &lines[0];
        let seat = header["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == "crasher")
            .unwrap() as u64;
        let end = lines.last().unwrap();
        let hand = &lines[1];
        let faults = hand["faults"].as_array().cloned().unwrap_or_default();
        if end["forfeited"].as_array().unwrap().is_empty() {
            continue;
        }
        assert_eq!(end["forfeited"], serde_json::json!([seat]), "{name}");
        assert!(
            faults
                .iter()
                .any(|f| f["seat"] == seat && f["kind"] == "absent" && f["forfeited"] == true),
            "{name}: the forfeit is an absent fault: {faults:?}"
        );
        assert!(faults.iter().all(|f| f["seat"] == seat), "{name}");
        last_forfeit = last_forfeit.max(header["match"].as_u64());
    }
    let last_forfeit = last_forfeit.expect("a match with a forfeit");

    // Every later match was played by the restarted process, with no fault.
    let later: Vec<&Vec<Value>> = logs
        .values()
        .filter(|l| l[0]["match"].as_u64().unwrap() > last_forfeit)
        .collect();
    assert!(!later.is_empty(), "matches after the crash");
    for lines in later {
        let seat = lines[0]["seats"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == "crasher")
            .unwrap() as u64;
        let hand = &lines[1];
        assert!(hand.get("faults").is_none(), "{hand}");
        let own: Vec<&Value> = hand["actions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["seat"] == seat)
            .collect();
        assert!(!own.is_empty());
        assert!(own.iter().all(|a| a.get("fallback").is_none()), "{hand}");
    }

    // The crash is in its stderr log, once: the restarted process did not crash.
    let log = std::fs::read_to_string(out.join("logs/crasher.stderr.log")).unwrap();
    assert_eq!(
        log.matches("--crash-after 170: exiting abruptly").count(),
        1,
        "{log}"
    );
    for b in ["heuristic", "random", "first"] {
        assert!(out.join(format!("logs/{b}.stderr.log")).exists());
    }
    assert_eq!(
        processes_in(&s.dir),
        Vec::<String>::new(),
        "bot processes left"
    );
}

/// The same tournament file run twice (into two folders) gives identical
/// results.json and identical match logs, timings aside.
#[test]
fn the_same_file_twice_gives_the_same_results() {
    let s = Scratch::new("tournament-determinism");
    Event::with(&format!(
        "name = \"det\"\ngame = \"israeli\"\nseed = 99\nhands = 1\nparallel = 8\n{CALM}"
    ))
    .bot("heuristic", &["--bot", "heuristic"])
    .bot("random", &["--bot", "random", "--seed", "1"])
    .bot("random-2", &["--bot", "random", "--seed", "2"])
    .bot("first", &["--bot", "first"])
    .bot("heuristic-2", &["--bot", "heuristic"])
    .write(&s, "det.toml");
    whistle_ok(
        &s,
        &[
            "tournament",
            "det.toml",
            "--out",
            "one",
            "--progress",
            "quiet",
        ],
    );
    whistle_ok(
        &s,
        &[
            "tournament",
            "det.toml",
            "--out",
            "two",
            "--progress",
            "quiet",
        ],
    );
    let (one, two) = (s.path("one"), s.path("two"));
    let r1 = results(&one);
    assert_eq!(
        r1["matches"].as_array().unwrap().len(),
        20,
        "5 groups × 4 rotations"
    );
    assert_eq!(r1, results(&two));
    let (l1, l2) = (logs(&one), logs(&two));
    assert_eq!(l1.len(), 20);
    assert_eq!(l1, l2);
    assert_eq!(
        std::fs::read_to_string(one.join("standings.csv"))
            .unwrap()
            .lines()
            .count(),
        6
    );
}

/// A runner killed with SIGKILL in the middle of a tournament: its bot
/// processes exit by themselves (the referee went away); `--resume` then
/// finishes the run. Every hand logged before the kill is kept byte for
/// byte (not played again), every match ends with exactly its hands, deal
/// indices consecutive (none lost, none twice), and the results and logs
/// equal those of an uninterrupted run, timings aside.
#[test]
fn a_killed_run_resumes_to_the_results_of_an_uninterrupted_one() {
    let s = Scratch::new("tournament-resume");
    Event::with(&format!(
        "name = \"kill\"\ngame = \"israeli\"\nseed = 31\nhands = 3\nrounds = 2\nparallel = 3\n{CALM}"
    ))
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("random", &["--bot", "random", "--seed", "4"])
        .bot("first", &["--bot", "first"])
        .bot("heuristic-2", &["--bot", "heuristic"])
        .write(&s, "kill.toml");
    let killed = s.path("killed");

    let mut child = spawn_tournament(&s, "kill.toml", "killed", "quiet", Stdio::null());
    // Wait for some hands to be logged, then kill the runner.
    let hand_lines = |dir: &Path| -> usize {
        let Ok(entries) = std::fs::read_dir(dir.join("matches")) else {
            return 0;
        };
        entries
            .flatten()
            .map(|e| {
                std::fs::read_to_string(e.path())
                    .unwrap_or_default()
                    .matches("{\"type\":\"hand\"")
                    .count()
            })
            .sum()
    };
    let started = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            panic!("the run ended ({st}) before it could be killed");
        }
        if hand_lines(&killed) >= 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no hands logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(
        !killed.join("results.json").exists(),
        "killed before the end"
    );

    // Its bots notice that the referee is gone and exit.
    let left = wait_for_no_processes_in(&s.dir, Duration::from_secs(15));
    assert!(
        left.is_empty(),
        "bot processes outlived the killed runner: {left:?}"
    );

    // What the kill left: complete lines only count.
    let before: BTreeMap<String, String> = std::fs::read_dir(killed.join("matches"))
        .unwrap()
        .flatten()
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let complete = text.rfind('\n').map_or(0, |i| i + 1);
            (
                e.file_name().to_string_lossy().into_owned(),
                text[..complete].to_string(),
            )
        })
        .collect();
    let unfinished = before
        .values()
        .filter(|t| !t.contains("{\"type\":\"end\""))
        .count();
    assert!(
        before.len() < 8 || unfinished > 0,
        "the kill left matches to play"
    );

    let resumed = whistle_ok(
        &s,
        &[
            "tournament",
            "kill.toml",
            "--out",
            "killed",
            "--resume",
            "--progress",
            "quiet",
        ],
    );
    assert!(resumed.status.success());
    whistle_ok(
        &s,
        &[
            "tournament",
            "kill.toml",
            "--out",
            "whole",
            "--progress",
            "quiet",
        ],
    );

    for (name, text) in &before {
        let now = std::fs::read_to_string(killed.join("matches").join(name)).unwrap();
        assert!(
            now.starts_with(text.as_str()),
            "{name}: the lines logged before the kill are kept as they were"
        );
    }
    let final_logs = logs(&killed);
    assert_eq!(final_logs.len(), 8);
    for (name, lines) in &final_logs {
        check_structure(name, lines, 3);
    }
    assert_eq!(final_logs, logs(&s.path("whole")));
    assert_eq!(results(&killed), results(&s.path("whole")));
    assert_eq!(
        processes_in(&s.dir),
        Vec::<String>::new(),
        "bot processes left"
    );
}

/// Resuming copes with what a kill at the worst moment leaves: a log file
/// created but empty, or with its header cut, is a match not yet started
/// (played in full); and `--resume` on a folder that does not exist yet
/// simply runs the tournament (so a job may always pass `--resume`).
#[test]
fn resume_restarts_logs_without_a_complete_header_and_starts_a_fresh_folder() {
    let s = Scratch::new("tournament-resume-edges");
    Event::with(&format!(
        "name = \"edges\"\ngame = \"israeli\"\nseed = 5\nhands = 1\nparallel = 4\n{CALM}"
    ))
    .bot("heuristic", &["--bot", "heuristic"])
    .bot("random", &["--bot", "random"])
    .write(&s, "edges.toml");
    whistle_ok(
        &s,
        &[
            "tournament",
            "edges.toml",
            "--out",
            "a",
            "--resume",
            "--progress",
            "quiet",
        ],
    );
    let a = s.path("a");
    let reference = results(&a);
    assert_eq!(reference["matches"].as_array().unwrap().len(), 4);
    std::fs::write(a.join("matches/m00001.jsonl"), "").unwrap();
    std::fs::write(
        a.join("matches/m00002.jsonl"),
        "{\"type\":\"header\",\"format\":\"whistle-rep",
    )
    .unwrap();
    std::fs::remove_file(a.join("results.json")).unwrap();
    whistle_ok(
        &s,
        &[
            "tournament",
            "edges.toml",
            "--out",
            "a",
            "--resume",
            "--progress",
            "quiet",
        ],
    );
    assert_eq!(results(&a), reference);
    for (name, lines) in &logs(&a) {
        check_structure(name, lines, 1);
    }
}

/// `--shard 0/3`, `1/3` and `2/3` run disjoint slices of the schedule;
/// `whistle merge` of the three folders gives the results, logs and
/// manifest of one unsharded run (a duplicate event, so the paired
/// per-deal comparisons are merged too). The whole run's report and
/// viewer pages, each page written as soon as its match finished, are
/// those a merge of its folder writes at its end.
#[test]
fn three_shards_merged_equal_one_run() {
    let s = Scratch::new("tournament-shards");
    Event::with(&format!(
        "name = \"sh\"\ngame = \"israeli\"\nseed = 8\nformat = \"duplicate\"\nhands = 2\nrounds = 2\nparallel = 4\n{CALM}"
    ))
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("random", &["--bot", "random", "--seed", "6"])
        .bot("first", &["--bot", "first"])
        .bot("random-2", &["--bot", "random", "--seed", "7"])
        .write(&s, "sh.toml");
    for i in 0..3 {
        let shard = format!("{i}/3");
        let dir = format!("s{i}");
        whistle_ok(
            &s,
            &[
                "tournament",
                "sh.toml",
                "--shard",
                &shard,
                "--out",
                &dir,
                "--progress",
                "quiet",
            ],
        );
        let l = logs(&s.path(&dir));
        assert!(!l.is_empty());
        for lines in l.values() {
            assert_eq!(lines[0]["match"].as_u64().unwrap() % 3, i, "shard {shard}");
        }
    }
    whistle_ok(&s, &["merge", "s0", "s1", "s2", "--out", "merged"]);
    whistle_ok(
        &s,
        &[
            "tournament",
            "sh.toml",
            "--out",
            "whole",
            "--progress",
            "quiet",
        ],
    );
    let (merged, whole) = (s.path("merged"), s.path("whole"));
    let r = results(&merged);
    assert_eq!(r["matches"].as_array().unwrap().len(), 8);
    assert!(
        r["duplicate"]["pairs"]
            .as_array()
            .is_some_and(|p| p.len() == 6)
    );
    assert_eq!(r, results(&whole));
    assert_eq!(logs(&merged), logs(&whole));
    assert_eq!(
        read_json(&merged.join("tournament.json")),
        read_json(&whole.join("tournament.json"))
    );
    let pages = |dir: &Path| -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<_> = std::fs::read_dir(dir.join("viewer"))
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().into_string().unwrap();
                (name, std::fs::read(e.path()).unwrap())
            })
            .collect();
        files.sort();
        files.push((
            "report.html".into(),
            std::fs::read(dir.join("report.html")).unwrap(),
        ));
        files
    };
    whistle_ok(&s, &["merge", "whole", "--out", "rewritten"]);
    let (w, r) = (pages(&whole), pages(&s.path("rewritten")));
    assert_eq!(w.len(), 9, "8 viewer pages and the report");
    assert!(
        w == r,
        "the pages written during the run differ from the merge's"
    );
}

/// Ranks `heuristic` and `random` in `game` and checks that heuristic ends
/// first, with its points-per-hand interval above random's and disjoint.
fn stronger_bot_separates(game: &str, extra: &str) {
    let s = Scratch::new(&format!("strength-{game}"));
    Event::with(&format!(
        "name = \"{game}\"\ngame = \"{game}\"\nseed = 12\n{extra}\n{CALM}"
    ))
    .bot("heuristic", &["--bot", "heuristic"])
    .bot("random", &["--bot", "random", "--seed", "9"])
    .write(&s, "t.toml");
    let (_, r) = run_quietly(&s);
    let bots = r["bots"].as_array().unwrap();
    assert_eq!(bots[0]["name"], "heuristic", "{r}");
    let rating = |b: &Value| b["rating"]["value"].as_f64().unwrap();
    assert!(rating(&bots[0]) > rating(&bots[1]), "{r}");
    let (h, x) = (&bots[0]["points"], &bots[1]["points"]);
    let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
    assert!(
        f(h, "low") > f(x, "high"),
        "{game}: heuristic {h} is not above random {x} with disjoint intervals"
    );
}

/// A clearly stronger bot (heuristic) ends above random in Israeli Whist
/// (four seats, Weng-Lin), with non-overlapping 95 % intervals of points
/// per hand.
#[test]
fn heuristic_ends_above_random_in_israeli() {
    stronger_bot_separates("israeli", "hands = 4\nparallel = 4");
}

/// The same in Honeymoon Whist (two seats, Glicko-2).
#[test]
fn heuristic_ends_above_random_in_honeymoon() {
    stronger_bot_separates("honeymoon", "hands = 5\nrounds = 3\nparallel = 6");
}

/// Two copies of one bot read as equal in a duplicate event seated in every
/// order. The bots are deterministic, so
/// the swapped seatings of the copies play out identically: the same-cards
/// difference is exactly 0.
#[test]
fn identical_bots_read_as_equal_in_a_permuted_duplicate_event() {
    let s = Scratch::new("tournament-pairwise");
    Event::with(&format!(
        "name = \"pairwise\"\ngame = \"israeli\"\nseed = 31\nformat = \"duplicate\"\nseatings = \"permutations\"\nhands = 4\nrounds = 2\nparallel = 8\n{CALM}"
    ))
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("heuristic-2", &["--bot", "heuristic"])
        .bot("first", &["--bot", "first"])
        .bot("first-2", &["--bot", "first"])
        .write(&s, "t.toml");
    let (ran, r) = run_quietly(&s);
    assert_eq!(
        r["matches"].as_array().unwrap().len(),
        48,
        "one group in 24 orders, twice"
    );
    let verdict = |a: &str, b: &str| -> Value {
        r["pairwise"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| (v["a"] == a && v["b"] == b) || (v["a"] == b && v["b"] == a))
            .unwrap_or_else(|| panic!("no verdict on {a} and {b}: {r}"))
            .clone()
    };
    for (a, b) in [("heuristic", "heuristic-2"), ("first", "first-2")] {
        let v = verdict(a, b);
        assert_eq!(v["verdict"], "equal", "{v}");
        assert_eq!(v["difference"]["mean"].as_f64(), Some(0.0), "{v}");
        assert_eq!(
            v["a_ahead"], v["b_ahead"],
            "swapped seatings mirror each other: {v}"
        );
    }
    // Different bots get a verdict from their same-cards difference.
    let v = verdict("heuristic", "first");
    let (low, high) = (
        v["difference"]["low"].as_f64().unwrap(),
        v["difference"]["high"].as_f64().unwrap(),
    );
    let expected = if low > 0.0 {
        "better"
    } else if high < 0.0 {
        "worse"
    } else {
        "equal"
    };
    assert_eq!(v["verdict"], expected, "{v}");
    assert_eq!(v["matches"], 48, "{v}");
    // The terminal says what a rating's ± is and gives the verdicts.
    assert!(ran.stdout.contains("not a 95 % interval"), "{}", ran.stdout);
    assert!(ran.stdout.contains("no clear difference"), "{}", ran.stdout);
    let md = std::fs::read_to_string(s.path("out/standings.md")).unwrap();
    assert!(md.contains("## Pairwise verdicts"), "{md}");
}

/// A bad tournament file is a usage error: exit code 2 and one line on
/// stderr naming the file, the line and the key; nothing is run or written.
#[test]
fn bad_tournament_files_exit_2_naming_the_key_and_the_line() {
    let s = Scratch::new("tournament-bad");
    let good = format!(
        "name = \"bad\"\ngame = \"israeli\"\nseed = 1\nhands = 1\n{}",
        bot("a", &["--bot", "random"])
    );
    let cases = [
        // An unknown key.
        (
            good.replace("seed = 1", "seed = 1\ncolour = \"red\""),
            4,
            "colour",
        ),
        // A game that does not exist.
        (good.replace("\"israeli\"", "\"chess\""), 2, "game"),
        // An option value out of range, and one of the wrong type.
        (
            good.replace("hands = 1", "hands = 1\n[options]\ntarget = 0"),
            6,
            "options.target",
        ),
        (good.replace("hands = 1", "hands = \"few\""), 4, "hands"),
    ];
    for (text, line, key) in cases {
        s.write("bad.toml", &text);
        let r = whistle(
            &s,
            &["tournament", "bad.toml", "--out", "out"],
            Duration::from_secs(20),
        );
        assert_eq!(r.status.code(), Some(2), "{text}\n{}", r.stderr);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "one line: {}", r.stderr);
        assert!(
            lines[0].contains(&format!("bad.toml:{line}: key `{key}`: ")),
            "{key} at line {line}: {}",
            lines[0]
        );
        assert!(r.stdout.is_empty());
        assert!(!s.path("out").exists());
    }
}

/// Bots that the runner does not start with `whistle bot`: a remote bot
/// (`remote = true`) connects by itself to the `listen` address with the
/// token of the file, and a bot whose command is a script given by a path
/// relative to the tournament file's folder is started there. Both play all
/// their matches without a fault, and the remote bot's process ends by
/// itself when the tournament is over.
#[test]
fn remote_bots_and_scripts_beside_the_file_take_part() {
    let s = Scratch::new("tournament-remote");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::create_dir_all(s.path("bots")).unwrap();
    let script = s.write(
        "bots/run.sh",
        &format!("#!/bin/sh\nexec {WHISTLE:?} bot --bot random \"$@\"\n"),
    );
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    Event::with(&format!(
        "name = \"remote\"\ngame = \"israeli\"\nseed = 3\nhands = 1\nparallel = 4\n\
         listen = \"127.0.0.1:{port}\"\n{CALM}start_timeout_ms = 60000\n"
    ))
    .remote("alice", "bot-alice-secret")
    .command("script", &["bots/run.sh", "--seed", "5"])
    .bot("first", &["--bot", "first"])
    .bot("heuristic", &["--bot", "heuristic"])
    .write(&s, "remote.toml");

    let err_path = s.path("runner.stderr");
    let mut runner = spawn_tournament(
        &s,
        "remote.toml",
        "out",
        "plain",
        std::fs::File::create(&err_path).unwrap().into(),
    );
    let started = Instant::now();
    while !std::fs::read_to_string(&err_path)
        .unwrap_or_default()
        .contains("remote bot alice: connect to")
    {
        assert!(
            runner.try_wait().unwrap().is_none(),
            "the runner ended: {}",
            std::fs::read_to_string(&err_path).unwrap_or_default()
        );
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no listening line"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut alice = Command::new(WHISTLE)
        .args(["bot", "--bot", "heuristic", "--token", "bot-alice-secret"])
        .args(["--address", &format!("127.0.0.1:{port}")])
        .env_remove("WHISTLE_ADDRESS")
        .env_remove("WHISTLE_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    let wait = |child: &mut Killed, what: &str| -> ExitStatus {
        let started = Instant::now();
        loop {
            if let Some(st) = child.try_wait().unwrap() {
                return st;
            }
            if started.elapsed() > Duration::from_secs(90) {
                let _ = child.kill();
                panic!("{what} did not finish");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    let st = wait(&mut runner, "the runner");
    assert!(
        st.success(),
        "{}",
        std::fs::read_to_string(&err_path).unwrap_or_default()
    );
    assert!(wait(&mut alice, "the remote bot").success());
    let r = results(&s.path("out"));
    assert_eq!(r["matches"].as_array().unwrap().len(), 4);
    for name in ["alice", "script", "first", "heuristic"] {
        let b = bot_stats(&r, name);
        assert_eq!(b["matches"], 4, "{b}");
        assert_eq!(
            (&b["forfeits"], &b["faults"]),
            (&0.into(), &serde_json::json!({})),
            "{b}"
        );
    }
    assert_eq!(
        processes_in(&s.dir),
        Vec::<String>::new(),
        "bot processes left"
    );
}

/// SIGTERM stops a run cleanly: the tables finish the hand in progress, the
/// bots are dismissed and exit, the runner exits 75 (resumable) without
/// results, and `--resume` then gives exactly the logs and results of a run
/// never stopped.
#[test]
fn sigterm_stops_a_run_that_then_resumes_to_the_results_of_an_uninterrupted_one() {
    let s = Scratch::new("tournament-sigterm");
    Event::with(&format!(
        "name = \"term\"\ngame = \"israeli\"\nseed = 37\nhands = 3\nrounds = 2\nparallel = 3\n{CALM}"
    ))
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("first", &["--bot", "first"])
        .bot("heuristic-2", &["--bot", "heuristic"])
        .bot("first-2", &["--bot", "first"])
        .write(&s, "term.toml");
    let stopped = s.path("stopped");
    let err_path = s.path("stopped.stderr");
    let mut child = spawn_tournament(
        &s,
        "term.toml",
        "stopped",
        "quiet",
        std::fs::File::create(&err_path).unwrap().into(),
    );
    let started = Instant::now();
    while !std::fs::read_dir(stopped.join("matches")).is_ok_and(|d| {
        d.flatten().any(|e| {
            std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .contains("{\"type\":\"hand\"")
        })
    }) {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no hands logged"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let stopped_at = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(
            stopped_at.elapsed() < Duration::from_secs(30),
            "no exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = std::fs::read_to_string(&err_path).unwrap();
    assert_eq!(status.code(), Some(75), "{err}");
    assert!(
        err.contains("SIGTERM received") && err.contains("--resume"),
        "{err}"
    );
    assert!(
        !stopped.join("results.json").exists(),
        "no results for a stopped run"
    );
    // The bots were dismissed and exited by themselves.
    let left = wait_for_no_processes_in(&s.dir, Duration::from_secs(10));
    assert!(left.is_empty(), "bot processes left: {left:?}");
    // Every log holds whole hands only.
    for (name, lines) in raw_logs(&stopped) {
        for l in &lines[1..] {
            assert!(
                matches!(l["type"].as_str(), Some("hand" | "end")),
                "{name}: {l}"
            );
        }
    }

    let args = [
        "tournament",
        "term.toml",
        "--out",
        "stopped",
        "--resume",
        "--progress",
        "quiet",
    ];
    whistle_ok(&s, &args);
    whistle_ok(
        &s,
        &[
            "tournament",
            "term.toml",
            "--out",
            "whole",
            "--progress",
            "quiet",
        ],
    );
    // The same deals and hand results (the order in which simultaneous
    // frisch gives arrive is timing, not play, so actions are compared as
    // sets per hand).
    let hands = |out: &Path| -> BTreeMap<String, Vec<(Value, Value, Vec<String>)>> {
        logs(out)
            .into_iter()
            .map(|(name, lines)| {
                let hands = lines
                    .iter()
                    .filter(|l| l["type"] == "hand")
                    .map(|l| {
                        let mut acts: Vec<String> = l["actions"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(Value::to_string)
                            .collect();
                        acts.sort();
                        (l["deck"].clone(), l["result"].clone(), acts)
                    })
                    .collect();
                (name, hands)
            })
            .collect()
    };
    assert_eq!(hands(&stopped), hands(&s.path("whole")));
    assert_eq!(results(&stopped), results(&s.path("whole")));
}

/// A bot whose command exits at once is out of the event after its
/// restarts: its matches are forfeits with the reason, and the event ends
/// in about the time of the others instead of waiting for it at every table.
#[test]
fn a_bot_that_cannot_start_is_out_of_the_event_and_its_matches_are_forfeits() {
    let s = Scratch::new("tournament-dead");
    Event::with(&format!(
        "name = \"dead\"\ngame = \"israeli\"\nseed = 41\nhands = 2\nparallel = 2\n{CALM}"
    ))
    .bot("heuristic", &["--bot", "heuristic"])
    .bot("first", &["--bot", "first"])
    .bot("random", &["--bot", "random", "--seed", "3"])
    .command("dead", &["false"])
    .write(&s, "dead.toml");
    let started = Instant::now();
    let r = common::whistle(
        &s,
        &["tournament", "dead.toml", "--progress", "quiet"],
        Duration::from_secs(120),
    );
    let took = started.elapsed();
    // Finished, but not clean: a script can tell.
    assert_eq!(r.status.code(), Some(3), "{}\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("out of the event (dead)"), "{}", r.stderr);
    // Said at once, one line (docs/tournaments.md, Progress), not again as
    // the referee's own log line: that one is detail, off by default.
    assert_eq!(
        r.stderr.matches("bot `dead` is out of the event").count(),
        1,
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("bot withdrawn"), "{}", r.stderr);
    // The default start timeout is 30 s: waiting for the dead bot even once
    // would take longer than this.
    assert!(
        took < Duration::from_secs(25),
        "took {took:?}\n{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("bot dead was out of the event"),
        "{}",
        r.stdout
    );
    let out = s.path("replays/dead");
    let res = results(&out);
    let dead = bot_stats(&res, "dead");
    assert_eq!(dead["forfeits"], dead["matches"], "{dead}");
    // The reason is in results.json and standings.md too.
    assert!(
        res["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["bot"] == "dead"
                && n["kind"] == "out"
                && n["detail"].as_str().unwrap().contains("process")),
        "{}",
        res["notes"]
    );
    let standings = std::fs::read_to_string(out.join("standings.md")).unwrap();
    assert!(standings.contains("out of the event"), "{standings}");
    assert!(dead["matches"].as_u64().unwrap() > 0);
    for (name, lines) in raw_logs(&out) {
        let text = lines.iter().map(Value::to_string).collect::<String>();
        assert!(
            text.contains("its process ended"),
            "{name}: no reason in the log"
        );
    }
    for b in ["heuristic", "first", "random"] {
        assert_eq!(bot_stats(&res, b)["forfeits"], 0, "{b}");
    }
}

/// Every ladder file (tournaments/ladder-*.toml) runs as written but small
/// (one hand, one round, the sampler on a small budget): the four bundled
/// bots as real processes, the sampler told each game's options over the
/// wire (it warns on its stderr when it is not), no fault.
#[test]
fn the_ladder_files_run_with_every_bundled_bot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tournaments");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("ladder-")
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 5, "one ladder file a game: {files:?}");
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let s = Scratch::new(&name);
        let text = std::fs::read_to_string(&file).unwrap();
        let small: String = text
            .lines()
            .map(|l| {
                if l.starts_with("rounds =") || l.starts_with("hands =") {
                    l.split('=').next().unwrap().to_string() + "= 1"
                } else {
                    l.replace("\"sampler\"]", "\"sampler:6\"]")
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(small.contains("sampler:6"), "{name}");
        s.write("t.toml", &format!("{small}\n{CALM}"));
        let (_, r) = run_quietly(&s);
        let bots = r["bots"].as_array().unwrap();
        assert_eq!(bots.len(), 4, "{name}: {r}");
        for b in bots {
            assert_eq!(b["faults"], serde_json::json!({}), "{name}: {b}");
            assert_eq!(b["forfeits"], 0, "{name}: {b}");
        }
        let log =
            std::fs::read_to_string(s.path("out/logs/sampler.stderr.log")).unwrap_or_default();
        assert!(!log.contains("not told the rules"), "{name}: {log}");
    }
}

#[test]
fn overwrite_starts_afresh_in_a_used_folder_and_keeps_what_is_not_its_own() {
    let s = Scratch::new("tournament-overwrite");
    Event::with(&format!(
        "name = \"again\"\ngame = \"honeymoon\"\nseed = 4\nhands = 1\nout = \"out\"\n{CALM}"
    ))
    .bot("first", &["--bot", "first"])
    .bot("random", &["--bot", "random"])
    .write(&s, "again.toml");
    let args = ["tournament", "again.toml", "--progress", "quiet"];
    whistle_ok(&s, &args);
    s.write("out/notes.txt", "the organiser's own file");
    let r = whistle(&s, &args, Duration::from_secs(60));
    assert!(!r.status.success());
    assert!(r.stderr.contains("--overwrite"), "{}", r.stderr);
    let matches = || -> Value {
        let r: Value =
            serde_json::from_str(&std::fs::read_to_string(s.path("out/results.json")).unwrap())
                .unwrap();
        r["matches"].clone()
    };
    let before = matches();
    let r = whistle_ok(
        &s,
        &[
            "tournament",
            "again.toml",
            "--progress",
            "quiet",
            "--overwrite",
        ],
    );
    assert!(r.stdout.contains("written to"), "{}", r.stdout);
    assert_eq!(
        before,
        matches(),
        "the same event, played again from nothing"
    );
    assert!(s.path("out/notes.txt").exists());
    let r = whistle(
        &s,
        &["tournament", "again.toml", "--overwrite", "--resume"],
        Duration::from_secs(60),
    );
    assert_eq!(r.status.code(), Some(2), "{}", r.stderr);
}

#[test]
fn two_copies_of_one_bot_share_their_place_everywhere_the_standings_are() {
    let s = Scratch::new("tournament-tie");
    Event::with(&format!(
        "name = \"tie\"\ngame = \"israeli\"\nseed = 9\nhands = 2\nformat = \"duplicate\"\nout = \"out\"\n{CALM}"
    ))
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("heuristic-2", &["--bot", "heuristic"])
        .bot("first", &["--bot", "first"])
        .bot("first-2", &["--bot", "first"])
        .write(&s, "tie.toml");
    let r = whistle_ok(&s, &["tournament", "tie.toml", "--progress", "quiet"]);
    let md = std::fs::read_to_string(s.path("out/standings.md")).unwrap();
    let html = std::fs::read_to_string(s.path("out/report.html")).unwrap();
    let res = results(&s.path("out"));
    // Wherever the pairwise verdict finds no clear difference with the bot
    // above, the place is shared.
    let bots: Vec<&str> = res["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    let tied = res["pairwise"].as_array().unwrap().iter().any(|v| {
        v["verdict"] != "better"
            && bots
                .windows(2)
                .any(|w| (v["a"] == w[0] && v["b"] == w[1]) || (v["a"] == w[1] && v["b"] == w[0]))
    });
    assert!(tied, "no tie among neighbours: {}", res["pairwise"]);
    assert!(md.contains("| 1= |") || md.contains("| 3= |"), "{md}");
    assert!(
        r.stdout.contains("1=") || r.stdout.contains("3="),
        "{}",
        r.stdout
    );
    assert!(html.contains("=</td>"), "the report shows the shared place");
    assert!(
        !html.contains(">equal<"),
        "the report's verdicts speak as the terminal does"
    );
    assert!(html.contains("two standard deviations"));
}

/// A class of forty: a round robin says it is huge and names the budget
/// format before anything starts; the budget format plays every bot the
/// same number of matches, each seat as often.
#[test]
fn a_class_of_forty_is_told_its_size_and_fits_in_a_budget() {
    use std::io::{BufRead, BufReader};
    let s = Scratch::new("tournament-forty");
    let bots: String = (0..40)
        .map(|i| {
            bot(
                &format!("s{i:02}"),
                &["--bot", if i % 2 == 0 { "first" } else { "random" }],
            )
        })
        .collect();
    let head = |format: &str| {
        format!(
            "name = \"class\"\ngame = \"israeli\"\nseed = 3\nhands = 1\nparallel = 8\n{format}\nout = \"out\"\n{CALM}"
        )
    };
    s.write("huge.toml", &(head("format = \"round-robin\"") + &bots));
    let mut child = std::process::Command::new(common::WHISTLE)
        .args(["tournament", "huge.toml", "--progress", "quiet"])
        .current_dir(&s.dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn_killed();
    let mut said = String::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines().take(2) {
        said.push_str(&line.unwrap());
        said.push('\n');
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(said.contains("365560 matches"), "{said}");
    assert!(
        said.contains("warning: this round-robin is huge") && said.contains("format = \"budget\""),
        "{said}"
    );
    s.write(
        "class.toml",
        &(head("format = \"budget\"\nmatches_per_bot = 4") + &bots),
    );
    let r = whistle(
        &s,
        &["tournament", "class.toml", "--progress", "quiet"],
        Duration::from_secs(300),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("class: 40 matches (every bot 4,"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("huge"), "{}", r.stderr);
    let res = results(&s.path("out"));
    for b in res["bots"].as_array().unwrap() {
        assert_eq!(b["matches"], 4, "{b}");
    }
}
