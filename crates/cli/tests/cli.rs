//! The `whistle` binary end to end: real process, real arguments.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn whistle() -> Command {
    Command::cargo_bin("whistle").unwrap()
}

fn play(args: &[&str]) -> Command {
    let mut cmd = whistle();
    cmd.arg("play").args(args);
    cmd
}

/// Runs a command that must fail as a usage error: exit code 2 and exactly
/// one line on stderr, starting with `expected`. Nothing on stdout.
fn usage_error(args: &[&str], expected: &str) {
    let out = play(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.starts_with(expected),
        "{args:?}: expected `{expected}`, got `{stderr}`"
    );
    assert!(out.stdout.is_empty(), "{args:?}");
}

#[test]
fn games_lists_every_game_and_its_options() {
    whistle()
        .arg("games")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "israeli (4 seats by default): Israeli Whist",
        ))
        .stdout(predicate::str::is_match(r"auction-order +suit-first").unwrap())
        .stdout(predicate::str::contains("target"))
        .stdout(predicate::str::contains("1..=100000"))
        .stdout(predicate::str::contains("yogi (5 seats by default)"))
        .stdout(predicate::str::contains("oneonta (1 seat by default)"))
        .stdout(predicate::str::contains("illustrated (4 seats by default)"))
        .stdout(predicate::str::contains("honeymoon (2 seats by default)"));
}

#[test]
fn games_json_has_keys_defaults_values_and_docs() {
    let out = whistle().args(["games", "--json"]).output().unwrap();
    assert!(out.status.success());
    let games: Value = serde_json::from_slice(&out.stdout).unwrap();
    let israeli = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "israeli")
        .unwrap();
    assert_eq!(israeli["seats"], 4);
    let target = israeli["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["key"] == "target")
        .unwrap();
    assert_eq!(target["default"], "300");
    assert!(target["doc"].as_str().unwrap().starts_with("I7"));
}

#[test]
fn play_prints_every_hand_and_the_standing() {
    let args = [
        "--game",
        "israeli",
        "--seed",
        "1",
        "--hands",
        "4",
        "--bots",
        "random,first",
    ];
    let out = play(&args).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("seats: 0 random, 1 first, 2 random, 3 first"),
        "{text}"
    );
    for deal in 0..4 {
        assert!(
            text.contains(&format!("deal {deal}  dealer {deal}")),
            "{text}"
        );
    }
    assert!(!text.contains("deal 4 "));
    assert!(text.contains("final standing after"));
    assert_eq!(text.matches("  total ").count(), 4);
    // Same arguments, same match.
    let again = play(&args).output().unwrap();
    assert_eq!(again.stdout, text.as_bytes());
    // Another seed, another match.
    let other = play(&["--game", "israeli", "--seed", "2", "--hands", "4"])
        .output()
        .unwrap();
    assert_ne!(other.stdout, text.as_bytes());
}

#[test]
fn play_json_is_one_consistent_document() {
    let out = play(&[
        "--game",
        "Israeli",
        "--seed",
        "5",
        "--opt",
        "hands=3",
        "--bots",
        "first,random",
        "--json",
    ])
    .output()
    .unwrap();
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["game"], "israeli");
    assert_eq!(doc["seed"], 5);
    assert_eq!(doc["options"]["hands"], "3");
    assert_eq!(doc["match_seed"].as_str().unwrap().len(), 64);
    let bots: Vec<&str> = doc["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots, ["first", "random", "first", "random"]);

    let hands = doc["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 3);
    let mut totals = [0i64; 4];
    for hand in hands {
        for (s, total) in totals.iter_mut().enumerate() {
            *total += hand["points"][s].as_i64().unwrap();
            assert_eq!(hand["totals"][s].as_i64().unwrap(), *total);
        }
        if hand["misdeal"] == false {
            assert!(hand["trump"].is_string());
            assert!(
                hand["contract"]["bid"]
                    .as_str()
                    .unwrap()
                    .starts_with("bid ")
            );
        }
    }
    let standing = doc["standing"].as_array().unwrap();
    assert_eq!(standing.len(), 4);
    assert_eq!(standing[0]["place"], 1);
    for row in standing {
        let seat = row["seat"].as_u64().unwrap() as usize;
        assert_eq!(row["total"].as_i64().unwrap(), totals[seat]);
        assert_eq!(row["bot"], bots[seat]);
    }
}

#[test]
fn help_documents_the_seed_derivation() {
    whistle()
        .args(["play", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Seed::from_u64(N).derive(Match, 0)",
        ))
        .stdout(predicate::str::contains("derive(Bot, s)"));
}

#[test]
fn unknown_game_option_value_or_bot_is_one_line_and_exit_code_2() {
    usage_error(
        &["--game", "foo", "--seed", "1"],
        "error: unknown game `foo` (known: israeli",
    );
    usage_error(
        &["--game", "israeli", "--seed", "1", "--opt", "colour=red"],
        "error: game `israeli` has no option `colour`",
    );
    usage_error(
        &["--game", "israeli", "--seed", "1", "--opt", "target=0"],
        "error: option `target`: bad value `0`",
    );
    usage_error(
        &[
            "--game",
            "israeli",
            "--seed",
            "1",
            "--opt",
            "auction-order=upside-down",
        ],
        "error: option `auction-order`: bad value `upside-down`",
    );
    usage_error(
        &["--game", "israeli", "--seed", "1", "--opt", "target"],
        "error: option `target` is not of the form key=value",
    );
    usage_error(
        &[
            "--game",
            "israeli",
            "--seed",
            "1",
            "--bots",
            "random,clever",
        ],
        "error: unknown bot `clever` (known: random, first, heuristic, sampler; the sampler takes a budget as `sampler:500` playouts or `sampler:200ms`)",
    );
    usage_error(
        &[
            "--game",
            "israeli",
            "--seed",
            "1",
            "--bots",
            "first,first,first,first,first",
        ],
        "error: 5 bots given but the game has 4 seats",
    );
    usage_error(
        &["--game", "oneonta", "--seed", "1", "--bots", "random,first"],
        "error: 2 bots given but the game has 1 seat",
    );
    usage_error(
        &[
            "--game", "israeli", "--seed", "1", "--hands", "2", "--opt", "hands=3",
        ],
        "error: give the number of hands once",
    );
    usage_error(
        &["--game", "israeli", "--seed", "1", "--hands", "0"],
        "error: option `hands`: bad value `0`",
    );
}

#[test]
fn missing_arguments_are_clap_usage_errors() {
    play(&["--game", "israeli"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--seed"));
}

/// `whistle bot` (parsed on a path of its own, since every bundled bot's
/// instance starts with it) says its help and its usage errors as the other
/// commands do, and reads its arguments the same way.
#[test]
fn bot_help_errors_and_arguments() {
    let help = whistle().args(["bot", "--help"]).output().unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    assert!(text.contains("Usage: whistle bot [OPTIONS]"), "{text}");
    assert!(text.contains("--bot <BOT>"), "{text}");
    whistle()
        .args(["bot", "--bogus"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '--bogus'"))
        .stderr(predicate::str::contains("Usage: whistle bot [OPTIONS]"));
    whistle()
        .args(["bot", "--bot", "nosuch"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("nosuch"));
    // Well-formed arguments reach the bot: it tries the address it is given.
    whistle()
        .args(["bot", "--bot", "random", "--seed", "3"])
        .env("WHISTLE_ADDRESS", "unix:/nonexistent/whistle.sock")
        .env("WHISTLE_TOKEN", "seat-x")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent/whistle.sock"));
}

/// Misdeals are hands by the rules (I3: "the hand counts as played"): a
/// match of two misdeals ends "after 2 hands", not "after 0".
#[test]
fn misdeals_count_as_hands_played() {
    // `first` passes in every Israeli auction: four all-pass auctions a hand.
    let args = [
        "--game", "israeli", "--seed", "3", "--hands", "2", "--bots", "first",
    ];
    let out = play(&args).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("final standing after 2 hands, all misdeals"),
        "{text}"
    );
}
