//! A tournament grades the same whether or not it was stopped and resumed:
//! a bot out of the event stays out across a SIGKILL and `--resume`, and
//! the sandbox limits that stopped a bot are still named (both kept in the
//! output folder's `bots.json`), `--resume` on a finished folder gives the
//! finished run's files and exit status again, and a ranked bot that
//! played mostly by fallback is flagged.
//!
//! Real bot processes: the bundled bots, and stdio bots in Python that
//! misbehave (one exits after a few decisions, one answers garbage, one
//! asks for more memory than its sandbox allows).

use std::{
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

mod common;

use common::{Event, Scratch, SpawnKilled, WHISTLE, bot_stats, builder_ext::EventExt};

/// A stdio bot that answers its first three requests (the first legal
/// action), then exits: a student's bug that strikes after a few decisions.
const QUITTER: &str = r#"import json, sys
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "request":
        n += 1
        print(0, flush=True)
        if n >= 3:
            sys.exit(0)
"#;

/// A stdio bot that answers about a third of its requests with garbage
/// (below the fault limit of a match), chosen by the position itself (a
/// checksum of its legal actions), not by a count that a process started
/// again after the kill would begin anew: the same decisions go to the
/// fallback in the killed and resumed run as in the whole one.
const SLOPPY: &str = r#"import json, sys, zlib
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "request":
        key = zlib.crc32(json.dumps(m["legal"]).encode())
        print("x" if key % 3 == 0 else 0, flush=True)
"#;

/// A stdio bot that asks for 10 GiB at its start: its sandbox's memory
/// limit stops it each time, until it is out of the event.
const HOG: &str = "x = bytearray(10 << 30)\nprint('allocated 10 GiB')\n";

/// The bots of [`event`] that misbehave, with their code, and the keys of
/// their entries beyond `stdio = true`.
const MISFITS: [(&str, &str, &str); 3] = [
    ("quitter", QUITTER, ""),
    ("sloppy", SLOPPY, ""),
    ("hog", HOG, "limits = { memory_mib = 256 }\n"),
];

fn event(s: &Scratch) {
    let head = Event::new("grades", "israeli").keys(&[
        ("seed", "43"),
        ("hands", "1"),
        ("rounds", "1"),
        ("parallel", "1"),
    ]);
    let bundled = head
        .calm()
        .bot("heuristic", &["--bot", "heuristic"])
        .bot("first", &["--bot", "first"])
        .bot("first-2", &["--bot", "first"]);
    MISFITS
        .iter()
        .fold(bundled, |e, (name, code, keys)| {
            let script = format!("bots/{name}/bot.py");
            std::fs::create_dir_all(s.path(&format!("bots/{name}"))).unwrap();
            s.write(&script, code);
            e.command_with(
                name,
                &["python3", &script],
                &format!("stdio = true\n{keys}"),
            )
        })
        .write(s, "grades.toml");
}

/// `whistle tournament grades.toml --out OUT [--resume]`: exit status,
/// stdout, stderr.
fn tournament(s: &Scratch, out: &str, resume: bool) -> (Option<i32>, String, String) {
    tournament_of(s, "grades.toml", out, resume)
}

/// `whistle tournament FILE --out OUT [--resume]`: exit status, stdout,
/// stderr.
fn tournament_of(
    s: &Scratch,
    file: &str,
    out: &str,
    resume: bool,
) -> (Option<i32>, String, String) {
    let mut args = vec!["tournament", file, "--out", out];
    if resume {
        args.push("--resume");
    }
    args.extend(["--progress", "quiet"]);
    let r = common::whistle(s, &args, Duration::from_secs(300));
    (r.status.code(), r.stdout, r.stderr)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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

/// results.json without its timing fields.
fn results(out: &Path) -> Value {
    let mut v = read_json(&out.join("results.json"));
    strip(&mut v, &["mean_ms", "max_ms"]);
    v
}

/// How many match logs of `out` hold their end line.
fn finished_matches(out: &Path) -> usize {
    std::fs::read_dir(out.join("matches")).map_or(0, |d| {
        d.flatten()
            .filter(|e| {
                std::fs::read_to_string(e.path())
                    .unwrap_or_default()
                    .contains("{\"type\":\"end\"")
            })
            .count()
    })
}

/// Runs `whistle tournament FILE --out OUT` in `s` and kills it (SIGKILL)
/// once `ready(OUT)` holds and a match more is over, before its end.
fn kill_once(s: &Scratch, file: &str, out: &str, ready: impl Fn(&Path) -> bool) {
    let folder = s.path(out);
    let mut child = Command::new(WHISTLE)
        .args(["tournament", file, "--out", out, "--progress", "quiet"])
        .current_dir(&s.dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    let started = Instant::now();
    let mut seen: Option<usize> = None;
    loop {
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        assert!(
            started.elapsed() < Duration::from_secs(240),
            "never ready to be killed"
        );
        if seen.is_none() && ready(&folder) {
            seen = Some(finished_matches(&folder));
        }
        if seen.is_some_and(|n| finished_matches(&folder) > n) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // SIGKILL.
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        !folder.join("results.json").exists(),
        "killed before the end"
    );
}

/// Whether `out`'s `bots.json` says that `bot` is out of the event.
fn is_out(out: &Path, bot: &str) -> bool {
    std::fs::read_to_string(out.join("bots.json")).is_ok_and(|t| {
        serde_json::from_str::<Value>(&t).is_ok_and(|v| {
            v["out"]
                .as_array()
                .is_some_and(|o| o.iter().any(|b| b["bot"] == bot))
        })
    })
}

#[test]
fn a_killed_and_resumed_run_grades_as_an_uninterrupted_one() {
    let s = Scratch::new("resume-grades");
    event(&s);

    // The whole run: the quitter is out, not ranked; exit status 3.
    let (code, whole_stdout, err) = tournament(&s, "whole", false);
    assert_eq!(code, Some(3), "{whole_stdout}\n{err}");
    let whole = results(&s.path("whole"));
    // The sloppy bot, ranked on the fallback's play, is flagged.
    assert_flagged(&s.path("whole"), &whole_stdout);
    let quitter = bot_stats(&whole, "quitter");
    assert!(
        quitter["unranked"]
            .as_str()
            .is_some_and(|u| u.starts_with("out: its process ended 4 times")),
        "{quitter}"
    );
    let kept = read_json(&s.path("whole/bots.json"));
    assert_eq!(kept["format"], "whistle-bots");
    assert_eq!(kept["ended"]["quitter"], 4, "{kept}");
    // The hog is named with the limit that stopped it, each time.
    assert_stopped_by_memory(&whole, "hog");

    // The same run killed (SIGKILL) once the quitter and the hog are out
    // and a match more is over, then resumed.
    let killed = s.path("killed");
    kill_once(&s, "grades.toml", "killed", |out| {
        is_out(out, "quitter") && is_out(out, "hog")
    });
    let (code, stdout, err) = tournament(&s, "killed", true);
    assert_eq!(code, Some(3), "{stdout}\n{err}");
    assert!(
        err.contains("bot `quitter` is out of the event"),
        "said again on resume: {err}"
    );
    // The limits of the killed run are kept with the bot.
    let kept = read_json(&killed.join("bots.json"));
    assert_eq!(
        kept["limits"]["hog"].as_array().map(Vec::len),
        Some(4),
        "{kept}"
    );
    assert_eq!(results(&killed), whole, "a resumed run grades as one run");

    // `--resume` on the finished folder: the same files and exit status.
    let files = |out: &str| -> Vec<String> {
        ["results.json", "standings.md", "standings.csv"]
            .iter()
            .map(|f| std::fs::read_to_string(s.path(out).join(f)).unwrap())
            .collect()
    };
    let before = files("whole");
    let (code, again_stdout, err) = tournament(&s, "whole", true);
    assert_eq!(code, Some(3), "{again_stdout}\n{err}");
    assert_eq!(
        files("whole"),
        before,
        "resuming a finished run changes nothing"
    );
    assert_eq!(again_stdout, whole_stdout);
}

/// With fresh instances (a duplicate event: each seat a process of its
/// own), a bot's instances stopped by a limit are named alike by the
/// uninterrupted run and by one killed and resumed (their ends and limits
/// kept in bots.json as each match ends).
#[test]
fn fresh_instances_stopped_by_a_limit_are_named_after_a_resume() {
    let s = Scratch::new("resume-instances");
    std::fs::create_dir_all(s.path("bots/hog")).unwrap();
    s.write("bots/hog/bot.py", HOG);
    Event::new("instances", "israeli")
        .keys(&[
            ("seed", "5"),
            ("hands", "1"),
            ("format", "\"duplicate\""),
            ("parallel", "1"),
        ])
        .calm()
        .command_with(
            "hog",
            &["python3", "bots/hog/bot.py"],
            "limits = { memory_mib = 256 }\n",
        )
        .bot("a", &["--bot", "first"])
        .bot("b", &["--bot", "random"])
        .bot("c", &["--bot", "heuristic"])
        .write(&s, "instances.toml");
    let (code, stdout, err) = tournament_of(&s, "instances.toml", "whole", false);
    assert_eq!(code, Some(3), "{stdout}\n{err}");
    let whole = results(&s.path("whole"));
    assert_stopped_by_memory(&whole, "hog");
    kill_once(&s, "instances.toml", "killed", |out| is_out(out, "hog"));
    let (code, stdout, err) = tournament_of(&s, "instances.toml", "killed", true);
    assert_eq!(code, Some(3), "{stdout}\n{err}");
    assert_eq!(
        results(&s.path("killed")),
        whole,
        "a resumed run names the limits as one run"
    );
}

/// `results` name the 256 MiB memory limit in each `limit` note of `bot`,
/// and there is one.
fn assert_stopped_by_memory(results: &Value, bot: &str) {
    let notes: Vec<&str> = results["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["bot"] == bot && n["kind"] == "limit")
        .map(|n| n["detail"].as_str().unwrap())
        .collect();
    assert!(
        !notes.is_empty()
            && notes
                .iter()
                .all(|d| d.starts_with("stopped by its sandbox")
                    && d.contains("memory limit 256 MiB")),
        "{notes:?}"
    );
}

/// A ranked bot that played much by fallback is flagged in `out`'s
/// results.json, standings.md and report, and in the terminal's `stdout`.
fn assert_flagged(out: &Path, stdout: &str) {
    let r = results(out);
    let sloppy = bot_stats(&r, "sloppy");
    assert!(sloppy.get("unranked").is_none(), "still ranked: {sloppy}");
    let (by_fallback, all) = (
        sloppy["fallbacks"][0].as_u64().unwrap(),
        sloppy["fallbacks"][1].as_u64().unwrap(),
    );
    assert!(by_fallback * 5 >= all, "{sloppy}");
    let note = r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["bot"] == "sloppy" && n["kind"] == "doubtful")
        .unwrap_or_else(|| panic!("no flag: {}", r["notes"]));
    let detail = note["detail"].as_str().unwrap();
    let share = by_fallback as f64 / all as f64 * 100.0;
    assert!(
        detail.starts_with(&format!(
            "{share:.0} % of its decisions were made by the fallback"
        )) && detail.ends_with("its place says little of the bot"),
        "{detail}"
    );
    // Only the bot that earns it: the working bots are not flagged, nor the
    // quitter (out of the event, not ranked).
    let flagged: Vec<&str> = r["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "doubtful")
        .map(|n| n["bot"].as_str().unwrap())
        .collect();
    assert_eq!(flagged, ["sloppy"]);
    // The terminal's standings, standings.md and the report say it too.
    assert!(
        stdout.contains(&format!("note: sloppy: {detail}")),
        "{stdout}"
    );
    let md = std::fs::read_to_string(out.join("standings.md")).unwrap();
    assert!(md.contains(&format!("**sloppy**: {detail}")), "{md}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        html.contains("data-kind=\"doubtful") && html.contains("its place says little of the bot"),
        "report.html"
    );
}
