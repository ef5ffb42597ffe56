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
    let run = whistle_ok(
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
    // Per bot: decisions by fallback, and every decision of its seats.
    let mut by_bot: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
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
            for a in actions {
                let seat = a["seat"].as_u64().unwrap() as usize;
                let bot = header["seats"][seat].as_str().unwrap().to_string();
                let e = by_bot.entry(bot).or_default();
                e.0 += u64::from(a["fallback"] == true);
                e.1 += 1;
            }
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

    // Decisions by fallback, per bot, in every output: results.json's
    // `fallbacks` ([by fallback, decisions]), standings.md, the terminal
    // and the report, as counted in the logs.
    let (by, of) = by_bot["broken"];
    assert_eq!(by, fallbacks as u64);
    assert!(by > 0 && by <= of, "{by_bot:?}");
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    for b in results["bots"].as_array().unwrap() {
        let name = b["name"].as_str().unwrap();
        let (by, of) = by_bot[name];
        assert_eq!(b["fallbacks"], serde_json::json!([by, of]), "{name}");
    }
    let share = format!("{by}/{of} ({:.1}%)", 100.0 * by as f64 / of as f64);
    let md = std::fs::read_to_string(out.join("standings.md")).unwrap();
    assert!(md.contains("| decisions by fallback |"), "{md}");
    assert!(md.contains(&format!("| {share} |")), "{share}\n{md}");
    assert!(
        md.contains(&format!("{by} of {of} decisions by fallback")),
        "{md}"
    );
    assert!(run.stdout.contains("by fallback"), "{}", run.stdout);
    // It forfeited every match: listed apart, its fallbacks on its line of
    // how the bots ran.
    assert!(
        run.stdout.lines().any(|l| l.contains("broken")
            && l.contains(&format!(
                "{by} of {of} decisions by fallback ({:.1}%)",
                100.0 * by as f64 / of as f64
            ))),
        "{}",
        run.stdout
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("decisions by fallback"));
    assert!(
        html.contains(&format!("<td class=\"fallbacks\">{share}</td>")),
        "{share}"
    );
}
