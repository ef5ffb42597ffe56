//! What a sandboxed bot is granted beyond its own folder (docs/fair-play.md,
//! "A bot's folder and what it may read"), with real bot processes: a
//! runtime whistle guesses from the program (the `PREFIX` of `PREFIX/bin`,
//! the interpreter a `pyvenv.cfg` names) never hands a bot the league's
//! store, another student's versions or a tournament's logs and seed, and a
//! league refuses an upload whose program lies outside it and the system's
//! paths. Real virtual environments still run. The store, round and
//! output folders whistle makes are the owner's alone.

mod common;

use std::{os::unix::fs::PermissionsExt, path::Path, process::Command, time::Duration};

use common::{
    Event, Scratch, WHISTLE, add_league_bots,
    builder_ext::{self, EventExt, league_head},
    whistle, whistle_ok,
};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Whether this machine can sandbox bots (if not, there is nothing to
/// grant: the fair-play tests check that runs refuse).
fn sandbox_available() -> bool {
    whistle_sandbox::probe(Path::new(WHISTLE)).is_ok()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// The league: round-robin, reference bots filling the seats, small
/// bounds on uploads and a 4 s build.
fn league() -> Event {
    league_head("grants", None, 2, "round-robin", 2, true)
        .table("time", &[("per_action_ms", "5000")])
        .table(
            "submissions",
            &[
                ("uploads_per_hour", "20"),
                ("disk_mib", "2"),
                ("unpacked_mib", "2"),
                ("build_s", "4"),
                ("build_disk_mib", "8"),
            ],
        )
        .class_references()
}

/// A Python script that tries to read `targets` (name, path: a file is
/// read, a folder listed) and says on stderr what worked (`LEAK NAME`) and
/// what did not (`denied NAME`); then fails (`exit`) or plays as the
/// first-legal stdio bot.
fn spy(targets: &[(&str, &Path)], then_play: bool) -> String {
    let mut py = String::from(
        "import os, sys\n\
         def look(name, p):\n\
         \x20   try:\n\
         \x20       got = os.listdir(p) if os.path.isdir(p) else open(p, 'rb').read(64)\n\
         \x20       if not got: raise OSError('empty')\n\
         \x20       sys.stderr.write('LEAK %s\\n' % name)\n\
         \x20   except OSError:\n\
         \x20       sys.stderr.write('denied %s\\n' % name)\n",
    );
    for (name, path) in targets {
        py.push_str(&format!(
            "look({name:?}, {:?})\n",
            path.display().to_string()
        ));
    }
    py.push_str("sys.stderr.flush()\n");
    if then_play {
        // Its own copy, in its folder (its working directory).
        py.push_str("exec(open('first_legal.py').read())\n");
    } else {
        py.push_str("sys.exit(1)\n");
    }
    py
}

/// A fake virtual environment in `dir/venv`: `bin/python3` a script running
/// the system's Python, its `pyvenv.cfg` naming `home`.
fn fake_venv(dir: &Path, home: &Path) {
    std::fs::create_dir_all(dir.join("venv/bin")).unwrap();
    let python = dir.join("venv/bin/python3");
    std::fs::write(&python, "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n").unwrap();
    std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        dir.join("venv/pyvenv.cfg"),
        format!("home = {}\nversion = 3.11.7\n", home.display()),
    )
    .unwrap();
}

fn submit(s: &Scratch, token: &str, path: &str) -> (bool, String) {
    let r = builder_ext::submit(s, token, path);
    (r.status.success(), format!("{}\n{}", r.stdout, r.stderr))
}

/// A stdio bot `bots/NAME` of `s` running in a fake virtual environment
/// whose `home` is `home` (`venv/bin/python3 bot.py`), `bot.py` the `code`
/// given, beside its own copy of the example first-legal bot.
fn venv_bot(s: &Scratch, name: &str, home: &Path, code: &str) {
    let dir = s.path(&format!("bots/{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    fake_venv(&dir, home);
    std::fs::write(dir.join("bot.py"), code).unwrap();
    std::fs::copy(
        root().join("bots/stdio/first_legal.py"),
        dir.join("first_legal.py"),
    )
    .unwrap();
}

/// The stdio bot entry of a bot of `bots/NAME` running `PROGRAM SCRIPT`
/// there.
fn stdio_bot(e: Event, name: &str, program: &str, script: &str) -> Event {
    let dir = format!("bots/{name}");
    e.command_with(
        name,
        &[&format!("{dir}/{program}"), &format!("{dir}/{script}")],
        &format!("dir = \"{dir}\"\nstdio = true\n"),
    )
}

/// Plays the event `file` in `s`, which must end with status 0.
fn play(s: &Scratch, file: &Path) {
    let r = whistle(
        s,
        &["tournament", file.to_str().unwrap(), "--progress", "quiet"],
        Duration::from_secs(300),
    );
    assert_eq!(r.status.code(), Some(0), "{}\n{}", r.stdout, r.stderr);
}

#[test]
fn a_fake_venv_upload_reads_neither_the_store_nor_another_students_versions() {
    let s = Scratch::new("grants-league");
    league().init_league(&s, "league.toml", "lg");
    let lg = std::fs::canonicalize(s.path("lg")).unwrap();
    // The store holds the league's secret seed: the owner's alone.
    assert_eq!(mode(&lg.join("league.db")), 0o600);
    let tokens = add_league_bots(&s, "lg", &["alice", "mallory"]);
    let (alice, mallory) = (&tokens[0], &tokens[1]);

    // A program by absolute path outside the upload and the system's paths
    // is refused at upload, before anything runs: whistle would grant the
    // folder above its `bin/`.
    let teacher = s.path("teacher");
    std::fs::create_dir_all(teacher.join("bin")).unwrap();
    std::fs::create_dir_all(s.path("abs")).unwrap();
    s.write(
        "abs/whistle.toml",
        &format!(
            "command = [{:?}, \"bot.py\"]\nprotocol = \"stdio\"\n",
            teacher.join("bin/python3").display().to_string()
        ),
    );
    s.write("abs/bot.py", "");
    let (ok, out) = submit(&s, mallory, "abs");
    assert!(!ok, "{out}");
    assert!(
        out.contains("outside the upload and the system's paths"),
        "{out}"
    );

    if !sandbox_available() {
        return;
    }
    // Alice's version looks like a Python installation (`bin/python3`,
    // `lib/python3.11`): only the league's own check keeps it from a
    // `pyvenv.cfg` that names it.
    std::fs::create_dir_all(s.path("alice/bin")).unwrap();
    std::fs::create_dir_all(s.path("alice/lib/python3.11")).unwrap();
    std::fs::copy(
        root().join("bots/stdio/first_legal.py"),
        s.path("alice/first_legal.py"),
    )
    .unwrap();
    std::fs::write(s.path("alice/bin/python3"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(
        s.path("alice/bin/python3"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    s.write("alice/lib/python3.11/site.py", "# alice's\n");
    s.write(
        "alice/whistle.toml",
        "command = [\"python3\", \"first_legal.py\"]\nprotocol = \"stdio\"\n",
    );
    let (ok, out) = submit(&s, alice, "alice");
    assert!(ok && out.contains("accepted: version 1"), "{out}");
    let alice_version = std::fs::read_dir(lg.join("submissions/alice"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("first_legal.py").is_file())
        .expect("alice's version folder");

    // Mallory's upload: a fake venv whose `home` is the store, then one
    // whose `home` is alice's version; the bot says what it could read and
    // fails, so that the refusal shows its stderr.
    let targets = [
        ("store", lg.join("league.db")),
        ("league", lg.join("league.toml")),
        ("alice", alice_version.clone()),
    ];
    let targets: Vec<(&str, &Path)> = targets.iter().map(|(n, p)| (*n, p.as_path())).collect();
    for (name, home) in [
        ("store", lg.join("league.db/bin")),
        ("alice", alice_version.join("bin")),
    ] {
        let up = s.path(&format!("mallory-{name}"));
        std::fs::create_dir_all(&up).unwrap();
        fake_venv(&up, &home);
        std::fs::write(up.join("bot.py"), spy(&targets, false)).unwrap();
        std::fs::write(
            up.join("whistle.toml"),
            "command = [\"venv/bin/python3\", \"bot.py\"]\nprotocol = \"stdio\"\n",
        )
        .unwrap();
        let (ok, out) = submit(&s, mallory, &format!("mallory-{name}"));
        assert!(!ok, "{out}");
        assert!(!out.contains("LEAK"), "home = {}:\n{out}", home.display());
        for tried in ["store", "league", "alice"] {
            assert!(
                out.contains(&format!("denied {tried}")),
                "{tried} not tried with home = {}:\n{out}",
                home.display()
            );
        }
    }

    // A round: its folder (seed, deals, logs) is the owner's alone, and
    // alice's version plays in it as before.
    whistle_ok(&s, &["league", "round", "--dir", "lg"]);
    let round = lg.join("rounds/0001");
    assert_eq!(mode(&round), 0o700);
    assert_eq!(mode(&round.join("round.toml")), 0o600);
    let standings = whistle_ok(&s, &["league", "standings", "--dir", "lg"]).stdout;
    assert!(standings.contains("alice.v1"), "{standings}");
}

#[test]
fn a_fake_venv_in_a_duplicate_event_reads_no_log_and_no_seed() {
    if !sandbox_available() {
        return;
    }
    let s = Scratch::new("grants-duplicate");
    let out = s.path("out");
    // Each fresh instance would read the logs of the rotations played
    // before it through `home = OUT/matches/bin`, and the drawn seed
    // through `home = OUT/seed.secret/bin` (two bots, one of each).
    let targets = [
        ("matches", out.join("matches")),
        ("seed", out.join("seed.secret")),
    ];
    let targets: Vec<(&str, &Path)> = targets.iter().map(|(n, p)| (*n, p.as_path())).collect();
    for (bot, home) in [
        ("alice", out.join("matches/bin")),
        ("carol", out.join("seed.secret/bin")),
    ] {
        venv_bot(&s, bot, &home, &spy(&targets, true));
    }
    let head = Event::new("grants", "israeli").keys(&[
        ("hands", "1"),
        ("format", "\"duplicate\""),
        ("parallel", "1"),
        ("out", "\"out\""),
    ]);
    let file = ["alice", "carol"]
        .iter()
        .fold(head.calm(), |e, bot| {
            stdio_bot(e, bot, "venv/bin/python3", "bot.py")
        })
        .bundled("b", "first")
        .bundled("c", "random")
        .write(&s, "t.toml");
    play(&s, &file);
    for bot in ["alice", "carol"] {
        let log = std::fs::read_to_string(out.join(format!("logs/{bot}.stderr.log"))).unwrap();
        assert!(!log.contains("LEAK"), "{bot}:\n{log}");
        assert!(
            log.contains("denied matches") && log.contains("denied seed"),
            "{bot}:\n{log}"
        );
    }
    // The drawn seed, the deals and the logs are the owner's alone.
    assert_eq!(mode(&out), 0o700);
    assert_eq!(mode(&out.join("matches")), 0o700);
    assert_eq!(mode(&out.join("logs")), 0o700);
    assert_eq!(mode(&out.join("seed.secret")), 0o600);
    // And still read by whistle's own readers (the same user).
    whistle_ok(&s, &["replay", "verify", out.to_str().unwrap()]);
}

#[test]
fn a_real_venv_in_the_bots_own_folder_still_runs() {
    if !sandbox_available() {
        return;
    }
    let s = Scratch::new("grants-real-venv");
    let dir = s.path("bots/v");
    std::fs::create_dir_all(&dir).unwrap();
    let made = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(dir.join("venv"))
        .status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: python3 -m venv is not available");
        return;
    }
    std::fs::copy(
        root().join("bots/stdio/first_legal.py"),
        dir.join("first_legal.py"),
    )
    .unwrap();
    let head = Event::new("venv", "israeli").keys(&[("hands", "1"), ("out", "\"out\"")]);
    let file = stdio_bot(head.calm(), "v", "venv/bin/python3", "first_legal.py")
        .bundled("b", "first")
        .bundled("c", "random")
        .bundled("d", "heuristic")
        .write(&s, "t.toml");
    play(&s, &file);
    let res: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(s.path("out/results.json")).unwrap())
            .unwrap();
    let v = res["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"] == "v")
        .unwrap()
        .clone();
    assert!(v["faults"].as_object().unwrap().is_empty(), "{v}");
    assert_eq!(v["forfeits"].as_u64(), Some(0), "{v}");
    assert!(v["hands"].as_u64().unwrap() > 0, "{v}");
}
