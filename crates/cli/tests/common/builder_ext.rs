//! More of the event builder ([`Event`]): a league's reference bots and
//! making a league of a file; and the test bots more than one test file
//! runs.

use super::{Event, Ran, Scratch, whistle_ok};

/// What [`Event`] also builds for the check-bot, fair-play and
/// submissions tests.
pub trait EventExt {
    /// A league's reference bot entry (`[[reference]]`) running
    /// `COMMAND...` (each word quoted).
    fn reference(self, name: &str, command: &[&str]) -> Event;

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
