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

use common::{Scratch, WHISTLE, add_league_bots, whistle, whistle_ok};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

const LEAGUE: &str = r#"name = "class"
game = "israeli"
hands = 2
format = "round-robin"
parallel = 2
fill = true

[time]
per_action_ms = 5000

[rating]
new_version = "inherit"

[submissions]
uploads_per_hour = 20
disk_mib = 2
unpacked_mib = 2
build_s = 4
build_disk_mib = 8

[[reference]]
name = "first"
command = ["whistle", "bot", "--bot", "first"]

[[reference]]
name = "random"
command = ["whistle", "bot", "--bot", "random", "--seed", "1"]

[[reference]]
name = "heuristic"
command = ["whistle", "bot", "--bot", "heuristic"]
"#;

/// A league in `s/lg` with one bot, `alice`, whose token is returned.
fn league(s: &Scratch) -> String {
    s.write("league.toml", LEAGUE);
    whistle_ok(s, &["league", "init", "league.toml", "--dir", "lg"]);
    add_league_bots(s, "lg", &["alice"]).remove(0)
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

fn submit(s: &Scratch, token: &str, path: &str) -> common::Ran {
    whistle(
        s,
        &["league", "submit", path, "--token", token, "--dir", "lg"],
        Duration::from_secs(240),
    )
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
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn("a"), spawn("b"));
    let out = |c: std::process::Child| {
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
        .spawn()
        .unwrap();
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
    let _ = Command::new("kill")
        .args(["-s", "TERM", &serve.id().to_string()])
        .status();
    let _ = serve.wait();
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
