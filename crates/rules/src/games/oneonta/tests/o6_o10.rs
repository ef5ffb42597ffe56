//! Scenario tests: O6 to O10: scoring, doubling, variants and the solitaire match.

use super::*;

#[test]
fn o6_standard_scoring_by_hand() {
    let std = Scoring::Standard;
    assert_eq!(score(std, Action::Bid(3), 3), 3);
    assert_eq!(score(std, Action::Bid(2), 3), 1, "2 − (3 − 2)");
    assert_eq!(score(std, Action::Bid(1), 4), -2, "1 − (4 − 1)");
    assert_eq!(score(std, Action::Bid(5), 3), -5);
    assert_eq!(score(std, Action::Null(4), 0), 4);
    assert_eq!(score(std, Action::Null(4), 1), -4);
    // Whole solitaire hands of the deal above.
    for (bid, win, points) in [
        ("bid 3", &[C, D, S][..], 3),
        ("bid 2", &[C, D, S], 1),
        ("bid 5", &[C, D, S], -5),
        ("null 4", &[], 4),
        ("null 4", &[S], -4),
        ("bid 1", &[D], 1),
    ] {
        let g = solitaire_match(&["hands=1"], &[(bid, win)]);
        assert_eq!(*g.hand_results()[0].points, [points], "{bid} {win:?}");
        assert_eq!(g.result().unwrap().totals, [points]);
    }
    // Multiplayer: seat 1 takes all seven tricks.
    let mut g = game(&["mode=multi", "players=3", "hands=1", "playoff-hands=0"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "null 3");
    act(&mut g, 0, "bid 2");
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "O14: the highest bid leads"
    );
    play_out(&mut g);
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 7, 0]);
    assert_eq!(*r.points, [-2, 3, 3], "missed 2; 5 − (7 − 5); null made");
    assert!(r.seat_points.is_empty(), "points are each seat's own");
    assert_eq!(*r.made, [Some(false), Some(false), Some(true)]);
    assert_eq!(
        r.summary,
        "trump H; bids bid 2, bid 5, null 3; tricks 0 7 0; points -2 +3 +3"
    );
    // Tied on 3 with no play-off allowed: a shared win (O15).
    assert_eq!(g.result().unwrap().ranks, [3, 1, 1]);
}

#[test]
fn o7_doubling_the_maximum_once_per_hand() {
    // Off by default: the doubled bids are illegal, with the reason.
    let g = solitaire(&[]);
    assert_eq!(
        g.check(seat(0), Action::DoubleBid(9)),
        rule("O7", "doubling is not played (option `doubling`)")
    );
    let g = solitaire(&["doubling=true"]);
    let listed = legal(&g, 0);
    assert_eq!(listed.len(), 20);
    assert_eq!(listed[18..], ["bid 9 double", "null 9 double"]);
    assert_eq!(
        g.check(seat(0), Action::DoubleBid(8)),
        rule("O7", "only a bid of the maximum may be doubled")
    );
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(3)),
        rule("O7", "only a null risking the maximum may be doubled")
    );
    // Made: +14; missed: −14 (a positive double needs exactly 9).
    let g = solitaire_match(
        &["doubling=true", "hands=2"],
        &[("null 9 double", &[]), ("bid 9 double", &[C, D, S])],
    );
    let points: Vec<i32> = g.hand_results().iter().map(|r| r.points[0]).collect();
    assert_eq!(points, [14, -14]);
    assert_eq!(score(Scoring::Standard, Action::DoubleNull(9), 1), -14);
    assert_eq!(score(Scoring::Alternative, Action::DoubleBid(9), 9), 14);

    // Multiplayer: first come, first served.
    let mut g = game(&["mode=multi", "players=2", "doubling=true", "hands=1"]);
    deal(&mut g, &[WEAK2, STRONG2], REST2);
    act(&mut g, 1, "bid 9 double");
    assert_eq!(g.observe(seat(0)).note("doubled"), Some("1"));
    let listed = legal(&g, 0);
    assert!(!listed.iter().any(|a| a.ends_with("double")), "{listed:?}");
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(9)),
        rule("O7", "a bid has already been doubled this hand")
    );
    act(&mut g, 0, "null 9");
    play_out(&mut g);
    let r = &g.hand_results()[0];
    assert_eq!(*r.tricks, [0, 9]);
    assert_eq!(*r.points, [9, 14]);
}

#[test]
fn o8_alternative_scoring_and_beating_the_game() {
    assert_eq!(score(Scoring::Alternative, Action::Bid(1), 3), 0);
    assert_eq!(score(Scoring::Standard, Action::Bid(1), 3), -1);
    assert_eq!(score(Scoring::Alternative, Action::Bid(3), 3), 3);
    assert_eq!(score(Scoring::Alternative, Action::Bid(5), 3), -5);
    assert_eq!(score(Scoring::Alternative, Action::Null(2), 1), -2);
    let g = solitaire_match(
        &["scoring=alternative", "hands=2"],
        &[("bid 1", &[C, D, S]), ("null 2", &[C])],
    );
    let points: Vec<i32> = g.hand_results().iter().map(|r| r.points[0]).collect();
    assert_eq!(points, [0, -2]);
    assert_eq!(g.result().unwrap().note, "not beaten");
    assert_eq!(g.observe(seat(0)).note("verdict"), Some("not beaten"));
    let g = solitaire_match(
        &["scoring=alternative", "hands=1"],
        &[("bid 3", &[C, D, S])],
    );
    assert_eq!(g.result().unwrap().note, "beaten");
    assert_eq!(g.result().unwrap().totals, [3]);
    // Standard solitaire has no verdict beyond the total (O10).
    let g = solitaire_match(&["hands=1"], &[("bid 3", &[C, D, S])]);
    assert_eq!(g.result().unwrap().note, "");
    // Every mode: a multiplayer overtrick scores 0 too.
    let mut g = game(&["mode=multi", "players=3", "hands=1", "scoring=alternative"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 5");
    act(&mut g, 2, "null 3");
    act(&mut g, 0, "bid 2");
    play_out(&mut g);
    assert_eq!(*g.hand_results()[0].points, [-2, 0, 3]);
}

#[test]
fn o9_edd_allard_win_draw_and_loss_against_thirty() {
    let edd = ["scoring=edd-allard"];
    assert_eq!(score(Scoring::EddAllard, Action::Null(0), 0), 10);
    assert_eq!(score(Scoring::EddAllard, Action::Null(0), 2), -12);
    assert_eq!(score(Scoring::EddAllard, Action::Bid(2), 3), 1);
    assert_eq!(score(Scoring::EddAllard, Action::Bid(4), 3), -4);
    // The null has no risk number.
    let g = solitaire(&edd);
    let mut expected: Vec<String> = (1..=9).map(|k| format!("bid {k}")).collect();
    expected.push("null".to_string());
    assert_eq!(legal(&g, 0), expected);
    assert_eq!(
        g.check(seat(0), Action::Null(3)),
        rule("O9", "an Edd Allard null has no risk number (`null`)")
    );
    // With doubling only the maximum positive bid can be doubled.
    let g = solitaire(&["scoring=edd-allard", "doubling=true"]);
    assert_eq!(
        legal(&g, 0).last().map(String::as_str),
        Some("bid 9 double")
    );
    assert_eq!(
        g.check(seat(0), Action::DoubleNull(9)),
        rule("O9", "an Edd Allard null has no risk number to double")
    );
    // Exactly nine deals, whatever `hands` says.
    assert_eq!(game(&["scoring=edd-allard", "hands=3"]).config().hands, 9);

    let null: (&str, &[Suit]) = ("null", &[]);
    let three: (&str, &[Suit]) = ("bid 3", &[C, D, S]);
    let zero: (&str, &[Suit]) = ("bid 1", &[C, D]); // 1 − (2 − 1) = 0
    let two: (&str, &[Suit]) = ("bid 2", &[C, D]);
    for (plan, total, verdict) in [
        // 3 × 10 + 6 × 0 = 30.
        (
            vec![null, null, null, zero, zero, zero, zero, zero, zero],
            30,
            "draw",
        ),
        // 2 × 10 + 3 × 3 + 4 × 0 = 29.
        (
            vec![null, null, three, three, three, zero, zero, zero, zero],
            29,
            "loss",
        ),
        // 2 × 10 + 3 × 3 + 2 + 3 × 0 = 31.
        (
            vec![null, null, three, three, three, two, zero, zero, zero],
            31,
            "win",
        ),
    ] {
        let g = solitaire_match(&edd, &plan);
        let result = g.result().expect("over after nine deals");
        assert_eq!(result.totals, [total]);
        assert_eq!(result.note, verdict);
        assert_eq!(result.hands, 9);
        assert_eq!(result.ranks, [1]);
        assert_eq!(g.observe(seat(0)).note("verdict"), Some(verdict));
    }
    // A broken Edd Allard null: −(10 + t).
    let g = solitaire_match(&edd[..], &[("null", &[C, D])]);
    assert_eq!(*g.hand_results()[0].points, [-12]);
    assert!(Oneonta::new(&Options::parse(&["scoring=edd-allard", "mode=multi"]).unwrap()).is_err());
}

#[test]
fn o10_a_solitaire_match_is_hands_deals_and_its_total() {
    assert_eq!(game(&[]).config().hands, 9);
    let g = solitaire_match(
        &["hands=3"],
        &[("bid 3", &[C, D, S]), ("null 2", &[]), ("bid 4", &[C])],
    );
    assert_eq!(g.status(), Status::Over);
    let result = g.result().unwrap();
    assert_eq!(result.totals, [3 + 2 - 4]);
    assert_eq!(result.hands, 3);
    let totals: Vec<i32> = g.hand_results().iter().map(|r| r.totals[0]).collect();
    assert_eq!(totals, [3, 5, 1]);
    assert_eq!(g.dealer(), seat(0), "the player always deals");
}
