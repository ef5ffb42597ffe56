//! `merge` over shard folders written by hand: the merged results equal
//! `compute` over all the logs, the revealed seed survives even when a
//! shard's results hold an unbounded interval (written as `null`), and a
//! match found twice or unfinished is refused.

mod common;

use std::path::{Path, PathBuf};

use common::{h, log};
use whistle_replay::{MatchLog, Writer};
use whistle_rules::Options;
use whistle_tournament::{
    Silent, merge, report,
    runner::{Manifest, match_path},
    stats::compute,
};

const BOTS: [&str; 4] = ["a", "b", "c", "d"];

fn manifest(shard: &str) -> Manifest {
    Manifest {
        format: whistle_tournament::runner::MANIFEST_FORMAT.into(),
        version: 1,
        name: "t".into(),
        game: "israeli".into(),
        options: Options::parse(&["hands=1"]).unwrap(),
        event: "round-robin".into(),
        seatings: "rotations".into(),
        rounds: 1,
        bots: BOTS.iter().map(|b| b.to_string()).collect(),
        seed_commitment: "c".into(),
        matches: 4,
        shard: Some(shard.into()),
    }
}

fn the_logs() -> Vec<MatchLog> {
    (0..4u64)
        .map(|i| {
            let seats: Vec<&str> = (0..4).map(|s| BOTS[(s + i as usize) % 4]).collect();
            log(i, "israeli", &seats, &[h(&[10, 0, -10, i as i32])], &[])
        })
        .collect()
}

/// Writes a shard folder holding `logs`, with its manifest and the results
/// a shard run would write (revealing seed 42).
fn shard(dir: &Path, name: &str, logs: &[&MatchLog]) -> PathBuf {
    let d = dir.join(name);
    std::fs::create_dir_all(d.join("matches")).unwrap();
    for l in logs {
        let mut w = Writer::create(&match_path(&d, l.header.match_index), &l.header).unwrap();
        for hand in &l.hands {
            w.hand(hand.clone()).unwrap();
        }
        if let Some(end) = &l.end {
            w.end(end.clone()).unwrap();
        }
    }
    let m = manifest(&format!("{name}/2"));
    std::fs::write(
        d.join("tournament.json"),
        serde_json::to_string(&m).unwrap(),
    )
    .unwrap();
    let names: Vec<String> = m.bots.clone();
    let owned: Vec<MatchLog> = logs.iter().map(|l| (*l).clone()).collect();
    let mut r = compute("t", "israeli", &names, &owned);
    r.seed = Some(whistle_rules::dealing::WrittenSeed::Number(42));
    report::write_all(&d, &r).unwrap();
    d
}

#[test]
fn merged_shards_equal_compute_over_all_logs_and_keep_the_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = the_logs();
    // Shard "1" holds one match of one hand: every bot's points interval has
    // one sample, unbounded, which JSON writes as null.
    let s0 = shard(tmp.path(), "0", &[&logs[0], &logs[2], &logs[3]]);
    let s1 = shard(tmp.path(), "1", &[&logs[1]]);
    let text = std::fs::read_to_string(s1.join("results.json")).unwrap();
    assert!(text.contains("\"low\": null"), "{text}");

    let out = tmp.path().join("merged");
    let merged = merge(&[s0, s1], &out, &Silent).unwrap();
    let names: Vec<String> = BOTS.iter().map(|b| b.to_string()).collect();
    let mut expected = compute("t", "israeli", &names, &logs);
    expected.seed = Some(whistle_rules::dealing::WrittenSeed::Number(42));
    assert_eq!(merged, expected);
    for i in 0..4 {
        assert!(match_path(&out, i).exists());
    }
    let m = Manifest::read(&out).unwrap();
    assert_eq!(m.shard, None);
}

#[test]
fn a_match_twice_or_unfinished_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = the_logs();
    let s0 = shard(tmp.path(), "0", &[&logs[0], &logs[1]]);
    let s1 = shard(tmp.path(), "1", &[&logs[1]]);
    let e = merge(&[s0.clone(), s1], &tmp.path().join("m1"), &Silent).unwrap_err();
    assert!(e.to_string().contains("match 1 appears twice"), "{e}");

    let mut open = logs[3].clone();
    open.end = None;
    let s2 = shard(tmp.path(), "2", &[&open]);
    let e = merge(&[s0, s2], &tmp.path().join("m2"), &Silent).unwrap_err();
    assert!(e.to_string().contains("match 3 is unfinished"), "{e}");
}
