//! More of the event builder ([`Event`]): a league's head, tables of keys,
//! a league's reference bots and making a league of a file; uploading to a
//! league; and the test bots more than one test file runs.

use std::time::Duration;

use super::{Event, Ran, Scratch, whistle, whistle_ok};

/// A league file's head: `name`, Israeli Whist, dealt from `seed` (as TOML
/// writes it; none: the league draws its own), `hands` a match, `format`, `parallel` tables
/// at once, and whether reference bots `fill` the seats.
pub fn league_head(
    name: &str,
    seed: Option<&str>,
    hands: u32,
    format: &str,
    parallel: u32,
    fill: bool,
) -> Event {
    let seed = seed.map(|n| format!("seed = {n}\n")).unwrap_or_default();
    Event::new(name, "israeli").and(&format!(
        "{seed}hands = {hands}\nformat = \"{format}\"\nparallel = {parallel}\nfill = {fill}\n\n"
    ))
}

/// `whistle league submit PATH --token TOKEN --dir lg` in `s`, given 240 s.
pub fn submit(s: &Scratch, token: &str, path: &str) -> Ran {
    whistle(
        s,
        &["league", "submit", path, "--token", token, "--dir", "lg"],
        Duration::from_secs(240),
    )
}

/// What [`Event`] also builds for the check-bot, fair-play and
/// submissions tests.
pub trait EventExt {
    /// A league's reference bot entry (`[[reference]]`) running
    /// `COMMAND...` (each word quoted).
    fn reference(self, name: &str, command: &[&str]) -> Event;

    /// Keys of the file's head, each value as TOML writes it.
    fn keys(self, keys: &[(&str, &str)]) -> Event;

    /// A table `[NAME]` of `keys`, each value as TOML writes it (`"5000"`,
    /// `"\"inherit\""`), then a blank line.
    fn table(self, name: &str, keys: &[(&str, &str)]) -> Event;

    /// The three bundled reference bots the class's leagues fill seats
    /// with: `first`, `random` (seed 1) and `heuristic`.
    fn class_references(self) -> Event;

    /// Writes the file to `rel` in `s` and makes a league of it in `dir`
    /// (`whistle league init REL --dir DIR`, which must succeed).
    fn init_league(&self, s: &Scratch, rel: &str, dir: &str) -> Ran;
}

impl EventExt for Event {
    fn reference(self, name: &str, command: &[&str]) -> Event {
        let words: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
        let entry = format!(
            "\n[[reference]]\nname = \"{name}\"\ncommand = [{}]\n",
            words.join(", ")
        );
        self.and(&entry)
    }

    fn keys(self, keys: &[(&str, &str)]) -> Event {
        keys.iter()
            .fold(self, |e, (k, v)| e.and(&format!("{k} = {v}\n")))
    }

    fn table(self, name: &str, keys: &[(&str, &str)]) -> Event {
        self.and(&format!("[{name}]\n")).keys(keys).and("\n")
    }

    fn class_references(self) -> Event {
        self.reference("first", &["whistle", "bot", "--bot", "first"])
            .reference(
                "random",
                &["whistle", "bot", "--bot", "random", "--seed", "1"],
            )
            .reference("heuristic", &["whistle", "bot", "--bot", "heuristic"])
    }

    fn init_league(&self, s: &Scratch, rel: &str, dir: &str) -> Ran {
        self.write(s, rel);
        whistle_ok(s, &["league", "init", rel, "--dir", dir])
    }
}

/// A stdio bot that sleeps 2 s before it reads its stdin (a JVM compiling
/// its bot), then answers each request at once (the first legal action)
/// but the `argv[1]`-th, for which it takes 1.5 s.
pub const SLOW_STARTER: &str = r#"import json, sys, time
time.sleep(2.0)
slow_at = int(sys.argv[1]) if len(sys.argv) > 1 else 0
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m.get("type") == "request":
        n += 1
        if n == slow_at:
            time.sleep(1.5)
        print(0, flush=True)
"#;
