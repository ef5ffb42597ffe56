//! Bots' owners upload versions of their bots (docs/leagues.md, "For
//! students"), as real processes: a good Python stdio bot and a C bot built
//! from source are accepted, hosted and seated in rounds; hostile and broken
//! uploads (a zip slip, an absolute path, a link out, a decompression bomb,
//! a corrupt archive, a build that hangs or fills its disk, a bot that fails
//! check-bot, a bad token) are refused with a clear message and leave the
//! league's bots, ratings and files as they were; two uploads at once are
//! serialised; a kill -9 during a build leaves nothing that counts.

mod common;

use std::{
    collections::BTreeMap,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{
    Event, Killed, Scratch, SpawnKilled, WHISTLE, add_league_bots,
    builder_ext::{EventExt, submit},
    whistle, whistle_ok,
};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The league's uploads: small bounds, a 4 s build.
const SUBMISSIONS: &str = "[submissions]\nuploads_per_hour = 20\ndisk_mib = 2\nunpacked_mib = 2\n\
                           build_s = 4\nbuild_disk_mib = 8\n";

/// The class's league file: Israeli, two hands a match, round-robin, its
/// `[time]` after `before_time` (tables as written), its uploads'
/// bounds `submissions` (a `[submissions]` table), and three bundled
/// reference bots.
fn league_file(before_time: &str, submissions: &str) -> Event {
    Event::new("class", "israeli")
        .and("hands = 2\nformat = \"round-robin\"\nparallel = 2\nfill = true\n\n")
        .and(before_time)
        .and("[time]\nper_action_ms = 5000\n\n[rating]\nnew_version = \"inherit\"\n\n")
        .and(submissions)
        .class_references()
}

/// A league of `file` in `s/lg` with one bot, `alice`, whose token is
/// returned.
fn league_of(s: &Scratch, file: &Event) -> String {
    file.init_league(s, "league.toml", "lg");
    add_league_bots(s, "lg", &["alice"]).remove(0)
}

/// A league of the class's file in `s/lg` with one bot, `alice`, whose
/// token is returned.
fn league(s: &Scratch) -> String {
    league_of(s, &league_file("", SUBMISSIONS))
}

/// A folder `name` in `s` holding the example Python stdio bot and
/// `manifest`.
fn python_bot(s: &Scratch, name: &str, manifest: &str) -> String {
    let dir = s.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        root().join("bots/stdio/first_legal.py"),
        dir.join("first_legal.py"),
    )
    .unwrap();
    std::fs::write(dir.join("whistle.toml"), manifest).unwrap();
    name.to_string()
}

const PY_MANIFEST: &str =
    "command = [\"python3\", \"first_legal.py\"]\nprotocol = \"stdio\"\nruntime = \"python3\"\n";

/// Runs a Python script (archives with whatever paths a test needs).
fn python(s: &Scratch, script: &str) {
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .current_dir(&s.dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What an upload must not change: every file of the league folder but the
/// store (path, size) and the upload lock, and the standings.
fn snapshot(s: &Scratch) -> (BTreeMap<String, u64>, String) {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, u64>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(base).unwrap().display().to_string();
            // The store is compared by its standings; the upload lock and
            // the folder that holds it are made by the first upload.
            if rel.starts_with("league.db") || rel.starts_with("submissions/.lock") {
                continue;
            }
            if rel == "submissions" && std::fs::symlink_metadata(&p).unwrap().is_dir() {
                walk(base, &p, out);
                continue;
            }
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                out.insert(rel + "/", 0);
                walk(base, &p, out);
            } else {
                out.insert(rel, m.len());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(&s.path("lg"), &s.path("lg"), &mut files);
    let standings = whistle_ok(s, &["league", "standings", "--dir", "lg", "--json"]).stdout;
    (files, standings)
}

fn standing(s: &Scratch, bot: &str) -> Option<serde_json::Value> {
    let out = whistle_ok(s, &["league", "standings", "--dir", "lg", "--json"]).stdout;
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    rows.into_iter().find(|r| r["bot"] == bot)
}

#[test]
fn a_good_python_bot_is_accepted_hosted_and_replaced_by_its_next_version() {
    let s = Scratch::new("submit-good");
    let token = league(&s);
    python_bot(&s, "bot", PY_MANIFEST);
    python(
        &s,
        "import tarfile\nwith tarfile.open('bot.tar.gz','w:gz') as t: t.add('bot', arcname='.')",
    );
    let r = submit(&s, &token, "bot.tar.gz");
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with("accepted: version 1 (bot alice.v1"),
        "{}",
        r.stdout
    );
    // The same files again: nothing to check.
    let r = submit(&s, &token, "bot");
    assert!(
        r.stdout.contains("accepted already: version 1"),
        "{}",
        r.stdout
    );

    // The league starts it in its round, sandboxed, like its own bots.
    whistle_ok(&s, &["league", "round", "--dir", "lg"]);
    let v1 = standing(&s, "alice.v1").expect("alice.v1 is in the standings");
    assert_eq!(v1["matches"], 1, "{v1}");
    assert_eq!(v1["faults"], 0, "{v1}");
    let log = whistle_ok(&s, &["league", "stderr", "--token", &token, "--dir", "lg"]).stdout;
    assert!(log.contains("== round 1, alice.v1"), "{log}");

    // Version 2, a .zip of a changed folder: it replaces version 1 with its
    // rating (`new_version = "inherit"`).
    std::fs::write(s.path("bot/NOTES.txt"), "v2\n").unwrap();
    python(
        &s,
        "import zipfile,os\nwith zipfile.ZipFile('bot.zip','w') as z:\n for f in os.listdir('bot'): z.write('bot/'+f, 'mybot/'+f)",
    );
    let r = submit(&s, &token, "bot.zip");
    assert!(
        r.stdout.starts_with("accepted: version 2 (bot alice.v2") && r.stdout.contains("rating"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let v2 = standing(&s, "alice.v2").unwrap();
    assert_eq!(v2["rating"], v1["rating"]);
    assert_eq!(standing(&s, "alice.v1").unwrap()["retired"], true);
    whistle_ok(&s, &["league", "round", "--dir", "lg"]);
    assert_eq!(standing(&s, "alice.v2").unwrap()["matches"], 1);
    assert_eq!(standing(&s, "alice.v1").unwrap()["matches"], 1);

    // The organiser downloads version 1 as it was uploaded.
    whistle_ok(
        &s,
        &[
            "league",
            "download",
            "alice",
            "1",
            "--out",
            "v1.tar.gz",
            "--dir",
            "lg",
        ],
    );
    python(
        &s,
        "import tarfile\nn=tarfile.open('v1.tar.gz').getnames()\nassert 'alice.v1/first_legal.py' in n, n\nassert not any(x.endswith('NOTES.txt') for x in n), n",
    );

    // Withdrawn, version 2 plays no more; the versions list says so.
    let r = whistle_ok(
        &s,
        &["league", "withdraw", "--token", &token, "--dir", "lg"],
    );
    assert!(r.stdout.contains("withdrawn: version 2"), "{}", r.stdout);
    // Without it the league has its three reference bots only.
    let r = whistle(
        &s,
        &["league", "round", "--dir", "lg"],
        Duration::from_secs(60),
    );
    assert!(
        r.stderr.contains("no table to play: 3 bot(s)"),
        "{}",
        r.stderr
    );
    assert_eq!(standing(&s, "alice.v2").unwrap()["matches"], 1);
    let list = whistle_ok(&s, &["league", "versions", "alice", "--dir", "lg"]).stdout;
    assert!(list.contains("v2  withdrawn"), "{list}");
    assert!(list.contains("v1  replaced"), "{list}");

    // The organiser disables version 1 for good; its files stay for grading.
    let r = whistle_ok(&s, &["league", "disable", "alice", "1", "--dir", "lg"]);
    assert!(
        r.stdout.contains("disabled: version 1 of alice"),
        "{}",
        r.stdout
    );
    let list = whistle_ok(
        &s,
        &["league", "versions", "--token", &token, "--dir", "lg"],
    )
    .stdout;
    assert!(list.contains("v1  disabled"), "{list}");
    let r = whistle(
        &s,
        &[
            "league", "download", "alice", "7", "--out", "x.tar.gz", "--dir", "lg",
        ],
        Duration::from_secs(30),
    );
    assert!(
        !r.status.success() && r.stderr.contains("no accepted version 7"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_c_bot_built_from_source_in_the_sandbox_is_accepted_and_plays() {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no C compiler here");
        return;
    }
    let s = Scratch::new("submit-c");
    let token = league(&s);
    std::fs::create_dir(s.path("cbot")).unwrap();
    std::fs::copy(
        root().join("bots/stdio/random_legal.c"),
        s.path("cbot/random_legal.c"),
    )
    .unwrap();
    s.write(
        "cbot/whistle.toml",
        "command = [\"./random_legal\"]\nprotocol = \"stdio\"\nbuild = \"cc -O2 -o random_legal random_legal.c\"\n",
    );
    let r = submit(&s, &token, "cbot");
    assert!(
        r.stdout.starts_with("accepted: version 1"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // The built program is kept in the version's folder.
    let kept: Vec<_> = std::fs::read_dir(s.path("lg/submissions/alice"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(kept.len(), 1);
    assert!(kept[0].path().join("random_legal").is_file());
    whistle_ok(&s, &["league", "round", "--dir", "lg"]);
    assert_eq!(standing(&s, "alice.v1").unwrap()["matches"], 1);
}

#[test]
fn hostile_and_broken_uploads_are_refused_and_change_nothing() {
    let s = Scratch::new("submit-hostile");
    let token = league(&s);
    python_bot(&s, "bot", PY_MANIFEST);
    let before = snapshot(&s);
    let mut refused = 0;
    let mut expect_refused = |path: &str, says: &[&str]| {
        let r = submit(&s, &token, path);
        assert!(!r.status.success(), "{path}: {}", r.stdout);
        let all = format!("{}{}", r.stdout, r.stderr);
        assert!(all.contains("refused: "), "{path}: {all}");
        for w in says {
            assert!(all.contains(w), "{path}: `{w}` not in:\n{all}");
        }
        assert_eq!(snapshot(&s), before, "{path} changed the league");
        refused += 1;
    };

    // A zip slip.
    python(
        &s,
        "import zipfile\nwith zipfile.ZipFile('slip.zip','w') as z:\n z.write('bot/whistle.toml','whistle.toml')\n z.writestr('../../slipped.txt','x')",
    );
    expect_refused("slip.zip", &["`..`"]);
    assert!(!s.path("slipped.txt").exists() && !s.path("lg/slipped.txt").exists());
    // An absolute path, a link out, a device file, in tar archives.
    python(
        &s,
        "import tarfile,io\n\
         def mk(name, infos):\n t=tarfile.open(name,'w:gz')\n t.add('bot/whistle.toml','whistle.toml')\n for i in infos:\n  t.addfile(i, io.BytesIO(b'x') if i.isreg() else None)\n t.close()\n\
         a=tarfile.TarInfo('/tmp/abs-evil'); a.size=1\n\
         l=tarfile.TarInfo('out'); l.type=tarfile.SYMTYPE; l.linkname='../../..'\n\
         d=tarfile.TarInfo('dev'); d.type=tarfile.CHRTYPE; d.devmajor=1; d.devminor=3\n\
         mk('abs.tar.gz',[a]); mk('link.tar.gz',[l]); mk('dev.tar.gz',[d])",
    );
    expect_refused("abs.tar.gz", &["absolute"]);
    expect_refused("link.tar.gz", &["leads out"]);
    expect_refused("dev.tar.gz", &["device file"]);
    // A bomb: 64 MiB of zeros in about 64 KiB, past the 2 MiB bound.
    python(
        &s,
        "import tarfile,io\nt=tarfile.open('bomb.tar.gz','w:gz',compresslevel=9)\ni=tarfile.TarInfo('zeros'); i.size=64<<20\nt.addfile(i, io.BytesIO(bytes(64<<20)))\nt.close()",
    );
    assert!(std::fs::metadata(s.path("bomb.tar.gz")).unwrap().len() < 1 << 20);
    expect_refused("bomb.tar.gz", &["more than 2097152 bytes"]);
    // A corrupt archive: a good one cut in half.
    python(
        &s,
        "import tarfile,os\nwith tarfile.open('good.tar.gz','w:gz') as t:\n t.add('bot',arcname='.')\n t.addfile(tarfile.TarInfo('pad'))\nb=open('good.tar.gz','rb').read()\nopen('cut.tar.gz','wb').write(b[:len(b)//2])",
    );
    expect_refused("cut.tar.gz", &["corrupt"]);
    // No manifest; a manifest that says nothing sensible.
    std::fs::create_dir(s.path("empty")).unwrap();
    s.write("empty/bot.py", "");
    expect_refused("empty", &["no whistle.toml"]);
    python_bot(
        &s,
        "badproto",
        "command = [\"python3\", \"first_legal.py\"]\nprotocol = \"tcp\"\n",
    );
    expect_refused("badproto", &["`protocol` is `tcp`"]);
    python_bot(
        &s,
        "noruntime",
        "command = [\"cobol\"]\nprotocol = \"stdio\"\nruntime = \"no-such-runtime-7\"\n",
    );
    expect_refused("noruntime", &["runtime `no-such-runtime-7`"]);
    // A build that hangs: stopped at the league's build_s (4 s).
    python_bot(
        &s,
        "hangs",
        &format!("{PY_MANIFEST}build = \"echo building; sleep 600\"\n"),
    );
    let t = Instant::now();
    expect_refused("hangs", &["time limit", "building"]);
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    // A build that fills its disk (8 MiB).
    python_bot(
        &s,
        "fills",
        &format!("{PY_MANIFEST}build = \"head -c 100000000 /dev/zero > big\"\n"),
    );
    expect_refused("fills", &["build: "]);
    // A build that leaves more than the upload's bound (2 MiB) in 8 MiB.
    python_bot(
        &s,
        "leaves",
        &format!("{PY_MANIFEST}build = \"head -c 3000000 /dev/urandom > big\"\n"),
    );
    expect_refused(
        "leaves",
        &["build: the folder it left", "more than 2097152 bytes"],
    );
    // A bot that fails check-bot (it answers garbage).
    std::fs::create_dir(s.path("broken")).unwrap();
    s.write(
        "broken/bot.py",
        "import os, sys\ntry:\n    for line in sys.stdin:\n        print('garbage', flush=True)\nexcept BrokenPipeError:\n    pass\n\
         print('I am broken: no idea what to play', file=sys.stderr, flush=True)\nos._exit(0)\n",
    );
    s.write(
        "broken/whistle.toml",
        "command = [\"python3\", \"bot.py\"]\nprotocol = \"stdio\"\n",
    );
    expect_refused("broken", &["check-bot: FAIL", "malformed"]);
    // One that dies at once: its refusal quotes its last stderr lines.
    std::fs::create_dir(s.path("crashes")).unwrap();
    s.write(
        "crashes/bot.py",
        "import sys\nprint('I am broken: no idea what to play', file=sys.stderr)\nsys.exit(3)\n",
    );
    s.write(
        "crashes/whistle.toml",
        "command = [\"python3\", \"bot.py\"]\nprotocol = \"grpc\"\n",
    );
    expect_refused("crashes", &["check-bot: FAIL subscribe", "I am broken"]);

    // The owner sees every refusal with its reason; none of them plays.
    let list = whistle_ok(
        &s,
        &["league", "versions", "--token", &token, "--dir", "lg"],
    )
    .stdout;
    let rows = list
        .lines()
        .filter(|l| l.trim_start().starts_with("-  refused"))
        .count();
    assert_eq!(rows, refused, "{list}");

    // The hourly bound counts refused uploads too; past it, nothing is
    // checked or recorded.
    for _ in refused..20 {
        assert!(
            !submit(&s, &token, "empty")
                .stderr
                .contains("in the last hour")
        );
    }
    let r = submit(&s, &token, "empty");
    assert!(
        r.stderr
            .contains("20 uploads of `alice` in the last hour; the league takes 20"),
        "{}",
        r.stderr
    );
    assert_eq!(snapshot(&s), before);

    // A bad token: the same words whether the bot exists or not.
    let unknown = submit(&s, "league-0000000000000000", "bot");
    let retired_token = add_league_bots(&s, "lg", &["bob"]).remove(0);
    whistle_ok(&s, &["league", "retire-bot", "bob", "--dir", "lg"]);
    let retired = submit(&s, &retired_token, "bot");
    assert!(!unknown.status.success() && !retired.status.success());
    assert_eq!(unknown.stderr, retired.stderr);
    assert!(
        unknown.stderr.contains("this token admits no bot"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn two_uploads_at_once_are_serialised() {
    let s = Scratch::new("submit-two");
    let token = league(&s);
    python_bot(&s, "a", PY_MANIFEST);
    python_bot(&s, "b", PY_MANIFEST);
    s.write("b/NOTES.txt", "b\n");
    let spawn = |path: &str| {
        Command::new(WHISTLE)
            .args(["league", "submit", path, "--token", &token, "--dir", "lg"])
            .current_dir(&s.dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn_killed()
    };
    let (a, b) = (spawn("a"), spawn("b"));
    let out = |c: Killed| {
        let o = c.wait_with_output().unwrap();
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr)
    };
    let (a, b) = (out(a), out(b));
    let mut versions: Vec<&str> = [&a, &b]
        .iter()
        .map(|o| {
            if o.contains("accepted: version 1") {
                "1"
            } else if o.contains("accepted: version 2") {
                "2"
            } else {
                panic!("{o}")
            }
        })
        .collect();
    versions.sort();
    assert_eq!(versions, ["1", "2"]);
    // One plays: the later one.
    assert_eq!(standing(&s, "alice.v1").unwrap()["retired"], true);
    assert_eq!(standing(&s, "alice.v2").unwrap()["retired"], false);
}

#[test]
fn a_kill_during_a_build_leaves_the_league_as_it_was() {
    let s = Scratch::new("submit-kill");
    let token = league(&s);
    // Killed in the middle of a build that would outlive the league's
    // bound (4 s) without using CPU (RLIMIT_CPU would not end it).
    let marker = format!("marker-{}", std::process::id());
    python_bot(
        &s,
        "slow",
        &format!("{PY_MANIFEST}build = \"sleep 100 || echo {marker}\"\n"),
    );
    let running = || {
        std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&marker))
        })
    };
    let before = snapshot(&s);
    let mut child = Command::new(WHISTLE)
        .args(["league", "submit", "slow", "--token", &token, "--dir", "lg"])
        .current_dir(&s.dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn_killed();
    let staging = s.path("lg/submissions/.staging");
    let t = Instant::now();
    while !std::fs::read_dir(&staging).is_ok_and(|mut d| d.next().is_some()) {
        assert!(t.elapsed() < Duration::from_secs(30), "no staging folder");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(700));
    assert!(running(), "the build is not running");
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    // The build's sandbox ends its processes once its parent is gone (the
    // launcher's contract); whatever a killed upload leaves, the next
    // upload ends and removes.
    std::thread::sleep(Duration::from_millis(300));
    // The store and the standings are untouched; only the staging folder
    // the killed upload was using is left, and the next upload removes it.
    let (files, standings) = snapshot(&s);
    assert_eq!(standings, before.1);
    let extra: Vec<&String> = files
        .keys()
        .filter(|k| !before.0.contains_key(*k))
        .collect();
    assert!(
        extra.iter().all(|k| k.starts_with("submissions/.staging")),
        "{extra:?}"
    );
    let list = whistle_ok(
        &s,
        &["league", "versions", "--token", &token, "--dir", "lg"],
    )
    .stdout;
    assert_eq!(list.lines().count(), 1, "{list}");
    python_bot(&s, "good", PY_MANIFEST);
    let r = submit(&s, &token, "good");
    assert!(
        r.stdout.starts_with("accepted: version 1"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(
        std::fs::read_dir(&staging).map_or(true, |mut d| d.next().is_none()),
        "the staging folder is left"
    );
    assert!(!running(), "the killed upload's build still runs");
}

#[test]
fn a_serving_league_seats_a_version_accepted_while_it_serves() {
    let s = Scratch::new("submit-serve");
    let token = league(&s);
    python_bot(&s, "bot", PY_MANIFEST);
    assert!(
        submit(&s, &token, "bot")
            .stdout
            .starts_with("accepted: version 1")
    );
    let (mut serve, _) = common::spawn_serve(&s, "lg", &[], &["listening on"]);
    let wait_for = |bot: &str| {
        let t = Instant::now();
        loop {
            if standing(&s, bot).is_some_and(|r| r["matches"].as_u64() >= Some(1)) {
                return;
            }
            assert!(
                t.elapsed() < Duration::from_secs(120),
                "{bot} never played: {}",
                std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    wait_for("alice.v1");
    // Accepted while the league serves: seated from a later round on.
    std::fs::write(s.path("bot/NOTES.txt"), "v2\n").unwrap();
    let r = submit(&s, &token, "bot");
    assert!(
        r.stdout.starts_with("accepted: version 2"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    wait_for("alice.v2");
    common::stop_all(&mut serve, &mut []);
    let v2 = standing(&s, "alice.v2").unwrap();
    assert_eq!(v2["faults"], 0, "{v2}");
}

#[test]
fn a_bots_kept_versions_are_bounded_on_disk() {
    let s = Scratch::new("submit-disk");
    let token = league(&s);
    python_bot(&s, "bot", PY_MANIFEST);
    let noise = |n: u8| {
        (0..1_500_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 ^ n)
            .collect::<Vec<u8>>()
    };
    std::fs::write(s.path("bot/data.bin"), noise(1)).unwrap();
    let r = submit(&s, &token, "bot");
    assert!(
        r.stdout.starts_with("accepted: version 1"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    // 1.5 MB kept, 1.5 MB more: past the league's 2 MiB a bot.
    std::fs::write(s.path("bot/data.bin"), noise(2)).unwrap();
    let before = snapshot(&s);
    let r = submit(&s, &token, "bot");
    assert!(!r.status.success());
    assert!(
        r.stderr.contains("the league keeps 2 MiB a bot"),
        "{}",
        r.stderr
    );
    assert_eq!(snapshot(&s), before);
    assert_eq!(standing(&s, "alice.v1").unwrap()["retired"], false);
}

/// A stdio bot that plays well under the game's defaults but, seated under
/// Israeli's `auction-order=number-first` (I2), holds 256 MiB: fine under
/// check-bot's own limits, over a league's tight `memory_mib`.
const HUNGRY_BOT: &str = r#"import json, sys
held = []
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "welcome" and m["options"].get("auction-order") == "number-first":
        sys.stderr.write("number-first: taking 256 MiB\n")
        sys.stderr.flush()
        held.append(b"x" * (256 << 20))
    if m.get("type") == "request":
        print(0, flush=True)
"#;

#[test]
fn the_check_runs_under_the_leagues_options_and_sandbox_limits() {
    let s = Scratch::new("submit-as-played");
    let token = league_of(
        &s,
        &league_file(
            "[options]\nauction-order = \"number-first\"\n\n[sandbox]\nmemory_mib = 128\n\n",
            SUBMISSIONS,
        ),
    );
    std::fs::create_dir(s.path("hungry")).unwrap();
    s.write("hungry/bot.py", HUNGRY_BOT);
    s.write(
        "hungry/whistle.toml",
        "command = [\"python3\", \"bot.py\"]\nprotocol = \"stdio\"\nruntime = \"python3\"\n",
    );
    // Under the game's defaults and check-bot's own limits it passes.
    let r = whistle(
        &s,
        &[
            "check-bot",
            "--games",
            "israeli",
            "--hands",
            "2",
            "--stdio",
            "--dir",
            "hungry",
            "--",
            "python3",
            "bot.py",
        ],
        Duration::from_secs(240),
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    // The league checks it as it would play it: refused, and why.
    let before = snapshot(&s);
    let r = submit(&s, &token, "hungry");
    assert!(
        r.stdout.starts_with("refused: check-bot: FAIL")
            || r.stderr.contains("refused: check-bot: FAIL"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    let said = format!("{}{}", r.stdout, r.stderr);
    assert!(said.contains("number-first: taking 256 MiB"), "{said}");
    assert_eq!(snapshot(&s), before);
    assert!(standing(&s, "alice.v1").is_none());
}

/// `curl ARGS` run in `s` against the site at `site` (`http://ADDR`): the
/// status and the body.
fn curl(s: &Scratch, site: &str, path: &str, args: &[&str]) -> (u16, String) {
    let out = Command::new("curl")
        .current_dir(&s.dir)
        .args(["-s", "--max-time", "60", "-w", "\n%{http_code}"])
        .args(args)
        .arg(format!("{site}{path}"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap_or((&text, "0"));
    (code.trim().parse().unwrap_or(0), body.to_string())
}

/// The owner's page of the bot `token` admits (a POST of the token form).
fn owner_page(s: &Scratch, site: &str, token: &str) -> (u16, String) {
    curl(
        s,
        site,
        "/owner",
        &["--data-urlencode", &format!("token={token}")],
    )
}

/// Polls the owner's page until it shows `what`.
fn owner_page_until(site: &str, token: &str, what: &str, s: &Scratch) -> String {
    let start = Instant::now();
    loop {
        let (code, body) = owner_page(s, site, token);
        assert_eq!(code, 200, "{body}");
        if body.contains(what) {
            return body;
        }
        assert!(
            start.elapsed() < Duration::from_secs(240),
            "the owner's page never showed {what:?}: {body}\n{}",
            std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn the_site_takes_uploads_and_shows_each_owner_alone_its_checks_and_stderr() {
    if Command::new("curl").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no curl here");
        return;
    }
    let s = Scratch::new("submit-site");
    let token = league(&s);
    let bob = add_league_bots(&s, "lg", &["bob"]).remove(0);
    // A bot whose stderr says a line its owner alone may read.
    python_bot(
        &s,
        "bot",
        PY_MANIFEST.replace("first_legal.py", "bot.py").as_str(),
    );
    s.write(
        "bot/bot.py",
        "import sys\nsys.stderr.write('alice private stderr line\\n')\nsys.stderr.flush()\n\
         exec(open('first_legal.py').read())\n",
    );
    python(
        &s,
        "import tarfile\nwith tarfile.open('bot.tar.gz','w:gz') as t: t.add('bot', arcname='.')",
    );
    // An upload a killed site left in its inbox (never checked) goes when
    // the league serves again.
    std::fs::create_dir_all(s.path("lg/submissions/.inbox")).unwrap();
    std::fs::write(s.path("lg/submissions/.inbox/1-0"), b"left by a kill").unwrap();
    let (mut serve, lines) =
        common::spawn_serve(&s, "lg", &["--http", "127.0.0.1:0"], &["site on "]);
    assert!(!s.path("lg/submissions/.inbox/1-0").exists());
    let site = lines[0]["site on ".len()..]
        .trim_end_matches('/')
        .to_string();
    let addr = site.trim_start_matches("http://").to_string();

    // The form: no JavaScript, the token a form field, the clear-text warning.
    let (code, form) = curl(&s, &site, "/upload", &[]);
    assert_eq!(code, 200);
    assert!(form.contains("enctype=\"multipart/form-data\""), "{form}");
    assert!(
        form.contains("name=\"token\"") && !form.contains("<script"),
        "{form}"
    );
    assert!(form.contains("plain HTTP"), "{form}");

    // A body declared past the archive bound is refused before it is sent.
    {
        use std::io::{Read, Write};
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            c,
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n\
             Content-Length: {}\r\n\r\n",
            100u64 << 20
        )
        .unwrap();
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(
            answer.contains("larger than the league takes (20 MiB)"),
            "{answer}"
        );
    }
    // A chunked body past it is cut as it streams.
    std::fs::write(s.path("big.bin"), vec![7u8; 21 << 20]).unwrap();
    let (code, body) = curl(
        &s,
        &site,
        "/upload",
        &[
            "-H",
            "Transfer-Encoding: chunked",
            "-F",
            &format!("token={token}"),
            "-F",
            "archive=@big.bin",
        ],
    );
    // (curl may see the connection closed while it still sends.)
    assert!(code == 413 || code == 0, "{code} {body}");
    assert!(
        body.is_empty() || body.contains("larger than the league takes"),
        "{body}"
    );

    // A bad token: one answer whether the bot exists or not, nothing kept.
    let mut wrong = token.clone();
    wrong.pop();
    wrong.push(if token.ends_with('x') { 'y' } else { 'x' });
    let tried: Vec<(u16, String)> = [wrong.as_str(), "wl-no-such-bot-token"]
        .iter()
        .map(|t| {
            curl(
                &s,
                &site,
                "/upload",
                &["-F", &format!("token={t}"), "-F", "archive=@bot.tar.gz"],
            )
        })
        .collect();
    assert_eq!(tried[0].0, 403);
    assert_eq!(tried[0], tried[1]);
    assert!(
        tried[0]
            .1
            .contains("this token admits no bot of the league")
    );
    assert_eq!(
        owner_page(&s, &site, &wrong),
        owner_page(&s, &site, "wl-no-such-bot-token")
    );
    assert_eq!(owner_page(&s, &site, &wrong).0, 403);

    // The upload: answered at once, checked in the background.
    let start = Instant::now();
    let (code, body) = curl(
        &s,
        &site,
        "/upload",
        &["-F", &format!("token={token}"), "-F", "archive=@bot.tar.gz"],
    );
    assert_eq!(code, 202, "{body}");
    assert!(body.contains("received: checking"), "{body}");
    assert!(start.elapsed() < Duration::from_secs(10));
    let page = owner_page_until(&site, &token, "accepted: version 1", &s);
    assert!(page.contains("alice"), "{page}");
    // Accepted, it is seated in the serving league's next round.
    let t = Instant::now();
    while standing(&s, "alice.v1").is_none_or(|r| r["matches"].as_u64() < Some(1)) {
        assert!(
            t.elapsed() < Duration::from_secs(180),
            "alice.v1 never played: {}",
            std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(300));
    }
    // Its stderr: on its owner's page, nowhere else.
    let page = owner_page_until(&site, &token, "alice private stderr line", &s);
    assert!(page.contains("v1") && page.contains("accepted"), "{page}");
    let (_, bobs) = owner_page(&s, &site, &bob);
    assert!(!bobs.contains("alice private stderr line"), "{bobs}");
    for path in ["/", "/bots/alice.v1", "/live", "/rounds"] {
        let (_, p) = curl(&s, &site, path, &[]);
        assert!(!p.contains("alice private stderr line"), "{path}: {p}");
    }
    // A token never shows in the site's or the serving league's output.
    let logs = std::fs::read_to_string(s.path("serve.stderr")).unwrap_or_default()
        + &std::fs::read_to_string(s.path("serve.stdout")).unwrap_or_default();
    assert!(!logs.contains(&token), "{logs}");

    // A refused upload: its outcome and the bot's last stderr lines shown.
    std::fs::create_dir(s.path("broken")).unwrap();
    s.write(
        "broken/whistle.toml",
        "command = [\"python3\", \"-c\", \"import sys; sys.stderr.write('broken on purpose\\\\n'); sys.exit(3)\"]\nprotocol = \"stdio\"\n",
    );
    python(
        &s,
        "import zipfile\nwith zipfile.ZipFile('broken.zip','w') as z: z.write('broken/whistle.toml', 'whistle.toml')",
    );
    let (code, body) = curl(
        &s,
        &site,
        "/upload",
        &["-F", &format!("token={token}"), "-F", "archive=@broken.zip"],
    );
    assert_eq!(code, 202, "{body}");
    let page = owner_page_until(&site, &token, "refused: check-bot: FAIL", &s);
    assert!(page.contains("broken on purpose"), "{page}");
    assert_eq!(standing(&s, "alice.v1").unwrap()["retired"], false);
    // Nothing of the uploads waits in the inbox.
    let inbox: Vec<_> = std::fs::read_dir(s.path("lg/submissions/.inbox"))
        .map(|d| d.flatten().collect())
        .unwrap_or_default();
    assert!(inbox.is_empty(), "{inbox:?}");
    common::stop_all(&mut serve, &mut []);
}

#[test]
fn a_serving_leagues_progress_counts_each_rounds_matches() {
    let s = Scratch::new("submit-progress");
    let token = league(&s);
    python_bot(&s, "bot", PY_MANIFEST);
    assert!(
        submit(&s, &token, "bot")
            .stdout
            .starts_with("accepted: version 1")
    );
    let r = whistle(
        &s,
        &[
            "league",
            "serve",
            "--dir",
            "lg",
            "--listen",
            "127.0.0.1:0",
            "--poll-ms",
            "200",
            "--rounds",
            "2",
            "--progress",
            "plain",
        ],
        Duration::from_secs(300),
    );
    assert!(r.status.success(), "{}", r.stderr);
    // Each round's lines count that round's matches: `M/T` with M ≤ T,
    // the last of each round M = T.
    let counts: Vec<(u64, u64)> = r
        .stderr
        .lines()
        .filter_map(|l| l.strip_prefix("progress: "))
        .filter_map(|l| l.split_once(" matches"))
        .filter_map(|(mt, _)| mt.split_once('/'))
        .map(|(m, t)| (m.parse().unwrap(), t.parse().unwrap()))
        .collect();
    assert!(counts.len() >= 2, "{}", r.stderr);
    assert!(
        counts.iter().all(|(m, t)| m <= t),
        "{counts:?}\n{}",
        r.stderr
    );
    let finished = counts.iter().filter(|(m, t)| m == t).count();
    assert!(finished >= 2, "{counts:?}");
}

/// Where the tests need the network (a registry) and it is missing: a
/// failure under CI (`CI=true`), else said and skipped.
fn unavailable(why: &str) {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{why}");
    }
    eprintln!("SKIPPED: {why}");
}

/// `whistle ARGS` in `s` with `path` first on `PATH` (the league machine's
/// `python3` with the kit installed).
fn whistle_on_path(s: &Scratch, path: &Path, args: &[&str]) -> std::process::Output {
    Command::new(WHISTLE)
        .args(args)
        .current_dir(&s.dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                path.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn the_python_kit_example_is_accepted_and_plays() {
    // The league machine's python3 with the kit and grpcio (a venv first on
    // the league's PATH): the build has no network to install them.
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("submit-kit-venv");
    if !venv.join("bin/python3").is_file() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status();
        if !made.is_ok_and(|s| s.success()) {
            return unavailable("python3 -m venv");
        }
    }
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--disable-pip-version-check"])
        .arg(root().join("bots/python"))
        .output();
    if !pip.as_ref().is_ok_and(|o| o.status.success()) {
        return unavailable(&format!("pip install ./bots/python: {pip:?}"));
    }
    let bin = venv.join("bin");
    let s = Scratch::new("submit-kit");
    let token = league(&s);
    // docs/leagues.md's manifest for a Python bot with the kit.
    std::fs::create_dir(s.path("kitbot")).unwrap();
    std::fs::copy(
        root().join("bots/python/examples/random_bot.py"),
        s.path("kitbot/random_bot.py"),
    )
    .unwrap();
    s.write(
        "kitbot/whistle.toml",
        "command = [\"python3\", \"random_bot.py\"]\nprotocol = \"grpc\"\nruntime = \"python3\"\n",
    );
    let out = whistle_on_path(
        &s,
        &bin,
        &[
            "league", "submit", "kitbot", "--token", &token, "--dir", "lg",
        ],
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("accepted: version 1"),
        "{said}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = whistle_on_path(
        &s,
        &bin,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v1 = standing(&s, "alice.v1").unwrap();
    assert_eq!(
        (v1["matches"].as_u64(), v1["faults"].as_u64()),
        (Some(1), Some(0)),
        "{v1}"
    );
    let log = whistle_ok(&s, &["league", "stderr", "--token", &token, "--dir", "lg"]).stdout;
    assert!(log.contains("whistle_bot INFO match-end"), "{log}");
}

#[test]
fn a_rust_bot_built_from_source_offline_is_accepted_and_plays() {
    let Some(cargo) = std::env::var("PATH").ok().and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("cargo"))
            .find(|c| c.is_file())
    }) else {
        eprintln!("SKIPPED: no cargo here");
        return;
    };
    // A rustup toolchain lives outside the system's paths: the league file
    // grants the build its proxies and its toolchains (docs/leagues.md).
    let cargo = std::fs::canonicalize(&cargo).unwrap_or(cargo);
    let bin_dir = cargo.parent().unwrap().display().to_string();
    let rustup_home = std::env::var("RUSTUP_HOME")
        .unwrap_or_else(|_| format!("{}/.rustup", std::env::var("HOME").unwrap_or_default()));
    let mut env = format!("RUSTUP_HOME = \"{rustup_home}\"");
    if let Ok(t) = std::env::var("RUSTUP_TOOLCHAIN") {
        env.push_str(&format!(", RUSTUP_TOOLCHAIN = \"{t}\""));
    }
    let s = Scratch::new("submit-rust");
    let submissions = format!(
        "[submissions]\nbuild_read = [\"{bin_dir}\", \"{rustup_home}\"]\nbuild_env = {{ {env} }}\n\
         uploads_per_hour = 20\ndisk_mib = 64\nunpacked_mib = 64\nbuild_s = 240\n\
         build_disk_mib = 512\n"
    );
    let token = league_of(&s, &league_file("", &submissions));
    // docs/leagues.md's manifest for a Rust bot built from source: a stdio
    // bot of the standard library alone, built offline.
    std::fs::create_dir_all(s.path("rsbot/src")).unwrap();
    s.write(
        "rsbot/Cargo.toml",
        "[package]\nname = \"first-legal\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    );
    s.write(
        "rsbot/src/main.rs",
        r#"use std::io::{BufRead, Write};

fn main() {
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        // Every request is answered with its first legal action.
        if line.starts_with("{\"type\":\"request\"")
            && writeln!(out, "0").and_then(|()| out.flush()).is_err()
        {
            break;
        }
    }
}
"#,
    );
    s.write(
        "rsbot/whistle.toml",
        "command = [\"./target/release/first-legal\"]\nprotocol = \"stdio\"\nbuild = \"cargo build --release --offline\"\n",
    );
    let r = submit(&s, &token, "rsbot");
    assert!(
        r.stdout.starts_with("accepted: version 1"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    whistle_ok(
        &s,
        &["league", "round", "--dir", "lg", "--progress", "quiet"],
    );
    let v1 = standing(&s, "alice.v1").unwrap();
    assert_eq!(
        (v1["matches"].as_u64(), v1["faults"].as_u64()),
        (Some(1), Some(0)),
        "{v1}"
    );
}

#[test]
fn with_the_leagues_certificate_the_site_is_https_only() {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    if Command::new("curl").arg("--version").output().is_err() {
        eprintln!("SKIPPED: no curl here");
        return;
    }
    let s = Scratch::new("submit-site-tls");
    let token = league(&s);
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name
        .push(DnType::CommonName, "whistle test league CA");
    let ca_key = KeyPair::generate().unwrap();
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    s.write("ca.pem", &ca_cert.pem());
    s.write("cert.pem", &cert.pem());
    s.write("key.pem", &key.serialize_pem());
    let (mut serve, lines) = common::spawn_serve(
        &s,
        "lg",
        &[
            "--http",
            "127.0.0.1:0",
            "--tls-cert",
            "cert.pem",
            "--tls-key",
            "key.pem",
        ],
        &["site on "],
    );
    let port = lines[0]
        .trim_end_matches('/')
        .rsplit(':')
        .next()
        .unwrap()
        .to_string();
    assert!(lines[0].starts_with("site on https://"), "{}", lines[0]);
    let https = format!("https://localhost:{port}");
    let (code, form) = curl(&s, &https, "/upload", &["--cacert", "ca.pem"]);
    assert_eq!(code, 200, "{form}");
    assert!(!form.contains("plain HTTP"), "{form}");
    // The token travels inside TLS only: plain HTTP gets no page.
    let (code, _) = curl(&s, &format!("http://127.0.0.1:{port}"), "/upload", &[]);
    assert_eq!(code, 0);
    let (code, page) = curl(
        &s,
        &https,
        "/owner",
        &[
            "--cacert",
            "ca.pem",
            "--data-urlencode",
            &format!("token={token}"),
        ],
    );
    assert_eq!(code, 200, "{page}");
    assert!(page.contains("alice: your bot"), "{page}");
    common::stop_all(&mut serve, &mut []);
}
