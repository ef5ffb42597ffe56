//! A faulting bot's fallback harms nobody (docs/rules/*.md, "Fallback"):
//! a real tournament with a broken bot (a stdio process that answers
//! garbage) in Israeli Whist, under the default fault policy. Every action
//! played for it is the passive one: never an auction bid (with the old
//! default, `random`, it bid up to 13NT and decided its table's hands),
//! and the log names the rule and verifies.

mod common;

use common::{Event, Scratch, whistle_ok};

#[test]
fn a_faulting_bot_never_bids_by_fallback_in_a_real_tournament() {
    let s = Scratch::new("fallback-passive");
    std::fs::create_dir_all(s.path("broken")).unwrap();
    s.write(
        "broken/broken.py",
        "import sys\nfor line in sys.stdin:\n    if '\"request\"' in line:\n        print('xyzzy', flush=True)\n",
    );
    Event::with(
        r#"name = "passive"
game = "israeli"
seed = 4
hands = 3
format = "round-robin"
parallel = 1

[time]
per_action_ms = 20000
"#,
    )
    .command_with(
        "broken",
        &["python3", "broken.py"],
        &format!("stdio = true\ndir = \"{}\"\n", s.path("broken").display()),
    )
    .bundled("h1", "heuristic")
    .bundled("h2", "random")
    .bundled("h3", "heuristic")
    .write(&s, "t.toml");
    let out = s.path("out");
    whistle_ok(
        &s,
        &[
            "tournament",
            s.path("t.toml").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--progress",
            "quiet",
        ],
    );
    let mut fallbacks = 0;
    let mut auction = 0;
    for entry in std::fs::read_dir(out.join("matches")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(
            header["faults"]["fallback"],
            "passive",
            "{}",
            path.display()
        );
        for line in lines {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(actions) = v["actions"].as_array() else {
                continue;
            };
            for a in actions.iter().filter(|a| a["fallback"] == true) {
                fallbacks += 1;
                let action = a["action"].as_str().unwrap();
                // I2: an auction bid names a strain (`bid 7D`, `bid 5NT`);
                // a contract bid (I4) is a bare number.
                let strain = action.starts_with("bid ")
                    && action.ends_with(|c: char| c.is_ascii_alphabetic());
                assert!(
                    !strain,
                    "{}: a fallback bid in the auction: {a}",
                    path.display()
                );
                auction += usize::from(action == "pass");
            }
        }
    }
    assert!(fallbacks > 20, "{fallbacks} fallbacks");
    assert!(auction > 0, "no auction fallback was played");
    whistle_ok(&s, &["replay", "verify", out.to_str().unwrap()]);
}
