//! The bundled bot binary (`whistle-bundled-bot`, installed beside
//! `whistle`): it says and does what `whistle bot` does, and a tournament
//! starts it for its `whistle bot ...` commands, sandboxed or not, only when
//! it sits beside the running `whistle` and answers the same build; missing
//! or of another build, `whistle` runs its bots itself and the event plays
//! all the same.

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use common::{Event, Killed, Scratch, WHISTLE};

/// The bundled bot binary under test.
const BUNDLED: &str = env!("CARGO_BIN_EXE_whistle-bundled-bot");

/// What a run of `program ARGS` printed and how it ended, with a bare
/// environment.
fn said(program: &Path, args: &[&str]) -> (String, String, Option<i32>) {
    let out = Command::new(program)
        .args(args)
        .env_clear()
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn the_bundled_bot_says_what_whistle_bot_says() {
    for line in [
        "--help",
        "-h",
        "--version",
        "--bogus",
        "help",
        "--bot",
        "--bot nope",
        "--seed xyz --address a --token t",
        "",
        "--token t",
        "--address 127.0.0.1:1 --token t",
        "--bot random --address 127.0.0.1:1 --token t --log info",
    ] {
        let args: Vec<&str> = line.split_whitespace().collect();
        let whistle: Vec<&str> = ["bot"].iter().chain(&args).copied().collect();
        assert_eq!(
            said(Path::new(BUNDLED), &args),
            said(Path::new(WHISTLE), &whistle),
            "`{line}`"
        );
    }
    // Its build: what `whistle` compares with its own.
    let (build, _, code) = said(Path::new(BUNDLED), &["__build"]);
    assert_eq!(code, Some(0));
    assert!(
        build.trim().starts_with(env!("CARGO_PKG_VERSION")),
        "{build}"
    );
}

/// What sits beside the `whistle` a test runs.
#[derive(Clone, Copy, Debug)]
enum Beside {
    /// The bundled bot binary of this build.
    Same,
    /// None.
    Nothing,
    /// A program that answers another build (and, started as a bot, says
    /// so in a file and fails).
    Other,
}

/// A folder `name` of `s` with `whistle` (and what `beside` says): the
/// running binary's folder is where the runner looks.
fn install(s: &Scratch, name: &str, beside: Beside) -> PathBuf {
    let dir = s.path(name);
    std::fs::create_dir_all(&dir).unwrap();
    let place = |from: &str, to: &str| {
        let to = dir.join(to);
        if std::fs::hard_link(from, &to).is_err() {
            std::fs::copy(from, &to).unwrap();
        }
    };
    place(WHISTLE, "whistle");
    match beside {
        Beside::Same => place(BUNDLED, "whistle-bundled-bot"),
        Beside::Nothing => {}
        Beside::Other => {
            use std::os::unix::fs::PermissionsExt;
            let p = dir.join("whistle-bundled-bot");
            let marker = s.path(&format!("{name}-started"));
            std::fs::write(
                &p,
                format!(
                    "#!/bin/sh\nif [ \"$1\" = __build ]; then echo 0.0.0-another; exit 0; fi\n\
                     touch {}\necho 'another build' >&2\nexit 1\n",
                    marker.display()
                ),
            )
            .unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    dir.join("whistle")
}

/// The event: two bundled bots in sandboxes (`--seed 11`), one of which
/// crashes once (in a late match), and two without (`--seed 12`), all
/// playing by counts, not by the clock: the same event whatever starts
/// them.
fn event(s: &Scratch) -> PathBuf {
    Event::with(
        "name = \"bundled\"\ngame = \"israeli\"\nseed = 5\nhands = 1\nrounds = 2\nparallel = 1\n\
         [time]\nper_action_ms = 20000\ntime_bank_ms = 0\nreconnect_grace_ms = 300\n\
         start_timeout_ms = 20000\n",
    )
    .bot("boxed", &["--bot", "sampler:100", "--seed", "11"])
    .bot(
        "crasher",
        &["--bot", "random", "--seed", "11", "--crash-after", "100"],
    )
    .command_with(
        "plain",
        &["whistle", "bot", "--bot", "sampler:100", "--seed", "12"],
        "sandbox = false\n",
    )
    .command_with(
        "plain-2",
        &["whistle", "bot", "--bot", "heuristic", "--seed", "12"],
        "sandbox = false\n",
    )
    .write(s, "t.toml")
}

/// Runs `whistle tournament` with the `whistle` at `program` into `out`,
/// watching its bots: for each `--seed` (11 sandboxed, 12 not), the file
/// names of the programs its bot processes ran. Returns them with the
/// standings (without the time columns).
fn run(s: &Scratch, program: &Path, out: &str) -> (BTreeMap<String, BTreeSet<String>>, String) {
    let folder = program.parent().unwrap().to_path_buf();
    let mut child = Killed::new(
        Command::new(program)
            .args(["tournament", "t.toml", "--out", out, "--progress", "quiet"])
            .current_dir(&s.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(s.path(&format!("{out}.stderr"))).unwrap())
            .spawn()
            .unwrap(),
    );
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let started = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "too slow");
        for e in std::fs::read_dir("/proc").unwrap().flatten() {
            let p = e.path();
            let (Ok(exe), Ok(cmdline)) = (
                std::fs::read_link(p.join("exe")),
                std::fs::read(p.join("cmdline")),
            ) else {
                continue;
            };
            let words: Vec<String> = cmdline
                .split(|&b| b == 0)
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            if !exe.starts_with(&folder) || words.iter().any(|w| w == "__sandbox") {
                continue;
            }
            if let Some(i) = words.iter().position(|w| w == "--seed") {
                seen.entry(words[i + 1].clone()).or_default().insert(
                    exe.file_name()
                        .unwrap()
                        .to_string_lossy()
                        .trim_end_matches(" (deleted)")
                        .to_string(),
                );
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stderr = std::fs::read_to_string(s.path(&format!("{out}.stderr"))).unwrap();
    assert!(status.success(), "{status}: {stderr}");
    let standings = std::fs::read_to_string(s.path(out).join("standings.csv")).unwrap();
    let header: Vec<&str> = standings.lines().next().unwrap().split(',').collect();
    let timed = |i: usize| header[i].starts_with("ms_");
    let standings = standings
        .lines()
        .map(|l| {
            l.split(',')
                .enumerate()
                .filter(|&(i, _)| !timed(i))
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join("\n");
    (seen, standings)
}

#[test]
fn a_tournament_starts_the_bundled_bot_beside_whistle_only_of_the_same_build() {
    let s = Scratch::new("bundled-bot");
    event(&s);
    let only = |name: &str| -> BTreeMap<String, BTreeSet<String>> {
        ["11", "12"]
            .iter()
            .map(|seed| (seed.to_string(), BTreeSet::from([name.to_string()])))
            .collect()
    };
    let same = install(&s, "same", Beside::Same);
    let (seen, standings) = run(&s, &same, "out-same");
    assert_eq!(
        seen,
        only("whistle-bundled-bot"),
        "sandboxed (11) and not (12)"
    );
    for (name, beside) in [("nothing", Beside::Nothing), ("other", Beside::Other)] {
        let whistle = install(&s, name, beside);
        let (seen, theirs) = run(&s, &whistle, &format!("out-{name}"));
        assert_eq!(seen, only("whistle"), "{name}");
        // The same event, the crashes and restarts included.
        assert_eq!(theirs, standings, "{name}");
        assert!(!s.path(&format!("{name}-started")).exists(), "{name}");
    }
    // The crasher crashed (and was started again) under either.
    for out in ["out-same", "out-nothing"] {
        let log = std::fs::read_to_string(s.path(out).join("logs/crasher.stderr.log")).unwrap();
        assert!(
            log.contains("whistle bot: --crash-after 100: exiting abruptly as asked"),
            "{out}: {log}"
        );
    }
}
