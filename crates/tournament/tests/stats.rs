//! `stats::compute` on match logs made by hand: ratings move towards the
//! bots that place better, per-bot counts and intervals are what the logs
//! hold, duplicate paired differences match a computation done by hand, a
//! forfeit ranks last, and unfinished matches are left out.

mod common;

use common::{H, h, log};
use whistle_replay::{ActionLog, Duplicate, FaultLog, MatchLog};
use whistle_rules::{Action, Seat};
use whistle_tournament::stats::{self, Interval, Results, compute};

fn names(bots: &[&str]) -> Vec<String> {
    bots.iter().map(|b| b.to_string()).collect()
}

fn bot<'a>(r: &'a Results, name: &str) -> &'a stats::BotStats {
    r.bots.iter().find(|b| b.name == name).unwrap()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Four bots finishing in the same order match after match: their Weng-Lin
/// ratings spread out in that order from the common start (mu 25), their
/// uncertainties shrink, and the standings list them in that order.
#[test]
fn weng_lin_ratings_move_towards_the_better_placed() {
    let seats = ["a", "b", "c", "d"];
    let logs: Vec<MatchLog> = (0..6)
        .map(|i| {
            // Rotate the seats; a always scores most, d least.
            let order: Vec<&str> = (0..4).map(|s| seats[(s + i) % 4]).collect();
            let pts: Vec<i32> = order
                .iter()
                .map(|b| match *b {
                    "a" => 30,
                    "b" => 20,
                    "c" => 10,
                    _ => 0,
                })
                .collect();
            log(i as u64, "israeli", &order, &[h(&pts)], &[])
        })
        .collect();
    let r = compute("t", "israeli", &names(&seats), &logs);
    let order: Vec<&str> = r.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(order, ["a", "b", "c", "d"]);
    let value = |n| bot(&r, n).rating.as_ref().unwrap().value;
    assert!(value("a") > 25.0 && value("d") < 25.0);
    assert!(value("a") > value("b") && value("b") > value("c") && value("c") > value("d"));
    for b in &r.bots {
        let rating = b.rating.as_ref().unwrap();
        assert_eq!(rating.system, "weng-lin");
        assert!(rating.uncertainty < 25.0 / 3.0, "{rating:?}");
    }
    assert_eq!(bot(&r, "a").wins, 6);
    assert!(close(bot(&r, "a").mean_place, 1.0));
    assert!(close(bot(&r, "d").mean_place, 4.0));
}

/// Two seats: Glicko-2, from 1500, moving towards the winner.
#[test]
fn glicko_2_ratings_move_towards_the_winner_of_two_seat_matches() {
    let logs = vec![
        log(0, "honeymoon", &["a", "b"], &[h(&[3, 0])], &[]),
        log(1, "honeymoon", &["b", "a"], &[h(&[0, 2])], &[]),
        log(2, "honeymoon", &["a", "b"], &[h(&[1, 0])], &[]),
    ];
    let r = compute("t", "honeymoon", &names(&["a", "b"]), &logs);
    let (a, b) = (
        bot(&r, "a").rating.clone().unwrap(),
        bot(&r, "b").rating.clone().unwrap(),
    );
    assert_eq!(a.system, "glicko-2");
    assert!(a.value > 1500.0 && b.value < 1500.0, "{a:?} {b:?}");
    assert!(a.uncertainty < 350.0);
    assert_eq!(r.bots[0].name, "a");
}

/// Hands, points per hand with their interval, bids made, wins and decision
/// times are what the logs hold (fallbacks are not the bot's own time).
#[test]
fn per_bot_statistics_are_the_logs_counts() {
    let mut m0 = log(
        0,
        "israeli",
        &["a", "b", "c", "d"],
        &[
            H {
                points: vec![10, -10, 0, 5],
                made: vec![Some(true), Some(false), None, Some(true)],
            },
            H {
                points: vec![20, 0, -5, 5],
                made: vec![Some(true), Some(true), None, Some(false)],
            },
        ],
        &[],
    );
    // A fallback of d and a fault: d's time ignores it, its faults count it.
    m0.hands[1].actions.push(ActionLog {
        seat: Seat::new(3),
        action: Action::Pass,
        ms: 500.0,
        fallback: true,
    });
    m0.hands[1].faults.push(FaultLog {
        seat: Seat::new(3),
        kind: "late".into(),
        detail: String::new(),
        fallback: Some(Action::Pass),
        faults: 1,
        forfeited: false,
        at: 4,
        answer: None,
    });
    let m1 = log(
        1,
        "israeli",
        &["b", "c", "d", "a"],
        &[h(&[7, 7, 7, -7])],
        &[],
    );
    let r = compute("t", "israeli", &names(&["a", "b", "c", "d"]), &[m0, m1]);
    let a = bot(&r, "a");
    assert_eq!((a.matches, a.hands), (2, 3));
    assert_eq!(a.points, Interval::of(&[10.0, 20.0, -7.0]));
    assert_eq!(a.bids_made, (2, 2));
    assert_eq!(a.wins, 1);
    assert!(close(a.mean_place, 2.5), "first, then last");
    assert!(close(a.mean_ms, (1.0 + 1.0 + 4.0) / 3.0), "{}", a.mean_ms);
    let d = bot(&r, "d");
    assert_eq!(d.bids_made, (1, 2));
    assert_eq!(d.faults.get("late"), Some(&1));
    assert!(close(d.max_ms, 4.0), "the 500 ms fallback is not counted");
    assert!(close(d.mean_ms, (4.0 + 4.0 + 3.0) / 3.0));
    assert_eq!(r.matches.len(), 2);
    assert_eq!(r.matches[0].totals, [30, -10, -5, 10]);
    assert_eq!(r.matches[1].hands, 1);
}

/// A seat that forfeits ranks after every seat that played on, whatever its
/// total, and the others are placed among themselves: the best of them wins.
#[test]
fn a_forfeit_ranks_last() {
    // a has the best total but forfeits.
    let m = log(
        0,
        "israeli",
        &["a", "b", "c", "d"],
        &[h(&[50, 10, 0, -10])],
        &[0],
    );
    let r = compute("t", "israeli", &names(&["a", "b", "c", "d"]), &[m]);
    assert_eq!(r.matches[0].ranks, [4, 1, 2, 3]);
    assert_eq!(r.matches[0].forfeited, [0]);
    let a = bot(&r, "a");
    assert_eq!((a.forfeits, a.wins), (1, 0));
    assert!(close(a.mean_place, 4.0));
    assert_eq!(bot(&r, "b").wins, 1);
    assert!(close(bot(&r, "d").mean_place, 3.0));
    let order: Vec<&str> = r.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(order, ["b", "c", "d", "a"], "by rating");
    // Two forfeits share the last place; ties among the others stay ties.
    assert_eq!(stats::places(&[1, 1, 3, 4], &[0, 3]), [3, 1, 2, 3]);
    assert_eq!(stats::places(&[2, 2, 1, 4], &[2]), [1, 1, 4, 3]);
}

/// A duplicate event of two bots in a two-seat game, two deals: the paired
/// per-deal differences and the differences from par are those computed by
/// hand (same deal, same seat, the two rotations).
#[test]
fn duplicate_paired_differences_match_a_hand_computation() {
    let mut r0 = log(0, "honeymoon", &["a", "b"], &[h(&[3, 0]), h(&[0, 2])], &[]);
    let mut r1 = log(1, "honeymoon", &["b", "a"], &[h(&[1, 0]), h(&[0, 4])], &[]);
    r0.header.duplicate = Some(Duplicate {
        group: 0,
        rotation: 0,
    });
    r1.header.duplicate = Some(Duplicate {
        group: 0,
        rotation: 1,
    });
    let r = compute("t", "honeymoon", &names(&["a", "b"]), &[r0, r1]);
    let d = r.duplicate.expect("a duplicate event");
    // (deal, seat) → a − b: (0,0) 3 − 1 = 2; (0,1) 0 − 0 = 0; (1,0) 0 − 0 = 0;
    // (1,1) 4 − 2 = 2. Mean 1, sample sd √(4/3), t(3) = 3.182.
    assert_eq!(d.pairs.len(), 1);
    let p = &d.pairs[0];
    assert_eq!((p.a.as_str(), p.b.as_str()), ("a", "b"));
    let half = 3.182 * (4.0f64 / 3.0).sqrt() / 2.0;
    assert_eq!(p.difference.n, 4);
    assert!(close(p.difference.mean, 1.0));
    assert!(close(p.difference.low, 1.0 - half) && close(p.difference.high, 1.0 + half));
    assert_eq!(p.difference, Interval::of(&[2.0, 0.0, 0.0, 2.0]));
    // Against par (the mean of both on the same deal and seat): a +1, 0, 0, +1.
    let par: Vec<(&str, Interval)> = d.versus_par.iter().map(|(n, i)| (n.as_str(), *i)).collect();
    assert_eq!(
        par,
        [
            ("a", Interval::of(&[1.0, 0.0, 0.0, 1.0])),
            ("b", Interval::of(&[-1.0, 0.0, 0.0, -1.0]))
        ]
    );
}

/// Unfinished matches (no end record) are left out; bots without a finished
/// match still appear, with nothing counted.
#[test]
fn unfinished_matches_are_left_out() {
    let done = log(
        0,
        "israeli",
        &["a", "b", "c", "d"],
        &[h(&[1, 2, 3, 4])],
        &[],
    );
    let mut open = log(
        1,
        "israeli",
        &["b", "c", "d", "a"],
        &[h(&[9, 9, 9, 9])],
        &[],
    );
    open.end = None;
    let r = compute(
        "t",
        "israeli",
        &names(&["a", "b", "c", "d", "e"]),
        &[open, done],
    );
    assert_eq!(r.matches.len(), 1);
    assert_eq!(bot(&r, "a").hands, 1);
    let e = bot(&r, "e");
    assert_eq!((e.matches, e.hands), (0, 0));
    assert!(e.rating.is_none());
    assert_eq!(r.bots.last().unwrap().name, "e");
}

/// A [`stats::Tally`] fed the logs one at a time, in schedule order, gives
/// exactly what `compute` gives over the whole slice (in any order).
#[test]
fn a_tally_one_log_at_a_time_equals_compute() {
    let mut logs: Vec<MatchLog> = (0..6u64)
        .map(|i| {
            let seats: Vec<&str> = (0..4)
                .map(|s| ["a", "b", "c", "d"][(s + i as usize) % 4])
                .collect();
            let hands: Vec<H> = (0..3)
                .map(|d| h(&[(i as i32 * 7 + d) % 11, -(d % 3), 4 - i as i32, d]))
                .collect();
            let mut l = log(
                i,
                "israeli",
                &seats,
                &hands,
                if i == 4 { &[2] } else { &[] },
            );
            l.header.duplicate = Some(Duplicate {
                group: i / 2,
                rotation: (i % 2) as u32,
            });
            l
        })
        .collect();
    logs[3].end = None; // unfinished: left out by both
    let bots = names(&["a", "b", "c", "d"]);
    let mut tally = stats::Tally::new("t", "israeli", &bots);
    for l in &logs {
        tally.add(l);
    }
    let streamed = tally.finish();
    logs.reverse();
    assert_eq!(streamed, compute("t", "israeli", &bots, &logs));
    assert_eq!(streamed.matches.len(), 5);
    assert!(streamed.duplicate.is_some());
}

/// Ratings depend on the order of matches, so a tally refuses a log that
/// comes after a later one.
#[test]
#[should_panic(expected = "schedule order")]
fn a_tally_wants_schedule_order() {
    let bots = names(&["a", "b", "c", "d"]);
    let mut tally = stats::Tally::new("t", "israeli", &bots);
    tally.add(&log(
        5,
        "israeli",
        &["a", "b", "c", "d"],
        &[h(&[1, 2, 3, 4])],
        &[],
    ));
    tally.add(&log(
        2,
        "israeli",
        &["a", "b", "c", "d"],
        &[h(&[1, 2, 3, 4])],
        &[],
    ));
}

/// One sample gives an unbounded interval: written to JSON as `null` ends
/// (JSON has no infinity) and read back as the same infinities, so a
/// results file of one-hand matches reads back (the report is made from it).
#[test]
fn an_unbounded_interval_survives_json() {
    let one = Interval::of(&[3.0]);
    assert_eq!((one.low, one.high), (f64::NEG_INFINITY, f64::INFINITY));
    let text = serde_json::to_string(&one).unwrap();
    assert_eq!(text, r#"{"n":1,"mean":3.0,"low":null,"high":null}"#);
    let back: Interval = serde_json::from_str(&text).unwrap();
    assert_eq!(back, one);
    let two = Interval::of(&[1.0, 3.0]);
    let back: Interval = serde_json::from_str(&serde_json::to_string(&two).unwrap()).unwrap();
    assert_eq!(back, two);
}

/// Events that compare seats on the same cards are graded by matchpoints:
/// the standings follow the grade, each ranked bot carries its matchpoints
/// interval as its grade. A bot that never played and a bot out of the
/// event are listed apart, with why, after every ranked bot: no grade, no
/// place, no verdict, and the terminal's table does not rank them.
#[test]
fn same_cards_events_are_graded_by_matchpoints_and_idle_bots_are_listed_apart() {
    let four = ["a", "b", "c", "d"];
    let mut logs: Vec<MatchLog> = (0..4u64)
        .map(|i| {
            let seats: Vec<&str> = (0..4).map(|s| four[(s + i as usize) % 4]).collect();
            // The seat's luck (seat 0 holds the best cards) plus the bot's
            // skill: c best, then a, d, b.
            let hands: Vec<H> = (0..3)
                .map(|d| {
                    let pts: Vec<i32> = seats
                        .iter()
                        .enumerate()
                        .map(|(s, b)| {
                            let skill = match *b {
                                "c" => 9,
                                "a" => 6,
                                "d" => 3,
                                _ => 0,
                            };
                            20 - 5 * s as i32 + skill + d
                        })
                        .collect();
                    h(&pts)
                })
                .collect();
            let mut l = log(i, "israeli", &seats, &hands, &[]);
            l.header.duplicate = Some(Duplicate {
                group: 0,
                rotation: i as u32,
            });
            l
        })
        .collect();
    // f sits one match and forfeits it: then it was out.
    let mut f = log(
        4,
        "israeli",
        &["f", "a", "b", "c"],
        &[h(&[0, 1, 2, 3])],
        &[0],
    );
    f.header.duplicate = Some(Duplicate {
        group: 1,
        rotation: 0,
    });
    logs.push(f);
    let all = names(&["a", "b", "c", "d", "e", "f"]);
    let mut tally = stats::Tally::new("t", "israeli", &all);
    tally.mark_out(&[("f".into(), "its process ended at start".into())]);
    for l in &logs {
        tally.add(l);
    }
    let r = tally.finish();
    assert_eq!(r.grade, "matchpoints");
    assert!(r.ranking.starts_with("by matchpoints"), "{}", r.ranking);
    let order: Vec<&str> = r.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(order, ["c", "a", "d", "b", "e", "f"]);
    // The rating (from places, where the seat's luck counts) disagrees: d
    // is rated above a. The grade decides.
    let rating = |n| bot(&r, n).rating.as_ref().unwrap().value;
    assert!(rating("d") > rating("a"));
    let mps = &r.duplicate.as_ref().unwrap().matchpoints;
    for b in &r.bots[..4] {
        let mp = mps.iter().find(|(n, _)| *n == b.name).unwrap().1;
        assert_eq!(b.grade, Some(mp), "{}", b.name);
        assert!(b.unranked.is_none());
    }
    assert!(close(bot(&r, "c").grade.unwrap().mean, 100.0));
    assert!(close(bot(&r, "b").grade.unwrap().mean, 0.0));
    assert_eq!(bot(&r, "e").unranked.as_deref(), Some("did not play"));
    assert_eq!(
        bot(&r, "f").unranked.as_deref(),
        Some("out: its process ended at start")
    );
    assert!(bot(&r, "e").grade.is_none() && bot(&r, "f").grade.is_none());
    let places = whistle_tournament::report::places(&r);
    assert_eq!(&places[4..], [(0, false), (0, false)]);
    assert_eq!(whistle_tournament::report::place_text(places[5]), "-");
    assert!(
        r.pairwise
            .iter()
            .all(|v| !["e", "f"].contains(&v.a.as_str()) && !["e", "f"].contains(&v.b.as_str())),
        "no verdict on a bot that is not ranked"
    );
    let text = whistle_tournament::report::text(&r);
    assert!(text.contains("matchpoints % [95% CI]"), "{text}");
    let table_end = text.find("not ranked").expect("a listing apart");
    assert!(!text[..table_end].contains("\n   -  e"), "{text}");
    assert!(text[table_end..].contains("e    did not play"), "{text}");
    assert!(
        text.contains("f    out: its process ended at start"),
        "{text}"
    );
    assert!(text.contains("1 of 1 matches forfeited"), "{text}");
    let md = whistle_tournament::report::markdown(&r);
    assert!(
        md.contains("## Not ranked") && md.contains("| e | did not play |"),
        "{md}"
    );
    // The grade survives the results file; a file from before it reads.
    let back: Results = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.grade, r.grade);
    for (x, y) in back.bots.iter().zip(&r.bots) {
        assert_eq!((&x.name, &x.unranked), (&y.name, &y.unranked));
        assert_eq!(x.grade.map(|g| g.mean), y.grade.map(|g| g.mean));
    }
    let mut old: serde_json::Value = serde_json::to_value(&r).unwrap();
    old.as_object_mut().unwrap().remove("grade");
    for b in old["bots"].as_array_mut().unwrap() {
        b.as_object_mut().unwrap().remove("grade");
        b.as_object_mut().unwrap().remove("unranked");
    }
    let old: Results = serde_json::from_value(old).unwrap();
    assert_eq!(old.grade, "");
}

/// A round robin (no shared cards) is graded by the rating, its interval
/// the value ± two uncertainties.
#[test]
fn a_round_robin_is_graded_by_the_rating() {
    let seats = ["a", "b", "c", "d"];
    let logs: Vec<MatchLog> = (0..4)
        .map(|i| {
            let order: Vec<&str> = (0..4).map(|s| seats[(s + i) % 4]).collect();
            let pts: Vec<i32> = order
                .iter()
                .map(|b| if *b == "b" { 9 } else { 0 })
                .collect();
            log(i as u64, "israeli", &order, &[h(&pts)], &[])
        })
        .collect();
    let r = compute("t", "israeli", &names(&seats), &logs);
    assert_eq!(r.grade, "rating");
    assert_eq!(r.bots[0].name, "b");
    let b = &r.bots[0];
    let (g, x) = (b.grade.unwrap(), b.rating.clone().unwrap());
    assert!(close(g.mean, x.value) && close(g.low, x.value - 2.0 * x.uncertainty));
    assert_eq!(g.n, 4);
}
