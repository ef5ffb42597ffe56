//! Scenario tests: L5 and L7 on deal A.

use super::*;

// ----- L5 and L7 on deal A -----

#[test]
fn l5_l7_silent_feats_and_a_silent_slam_on_a_low_contract() {
    let mut g = a_whole_8s();
    passes(&mut g, &[0, 1, 2, 3]);
    play(&mut g, &A_SWEEP);
    // 8S by 0, whole, twelve tricks: base min(1 + 6, 12) = 7, difficulty 0.
    // Silent: four kings 2, four aces 3, dix last 4 (won with 2S, contract
    // made), all three 2 (BJ, LJ, 2S). 7 + 11 = 18.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!((b.hand, b.game), (7, 1));
    assert_eq!(b.feats, [[2, 3, 4, 2, 0, 0], [0; 6]]);
    assert_eq!(points(&g), [18, 0]);
    let r = &g.hand_results()[0];
    assert_eq!(
        r.summary,
        "8S by 0, whole: tricks 12-0, made +7; feats 0 four-kings +2, 0 four-aces +3, \
         0 dix-last +4, 0 all-three +2; team 0 +18, team 1 +0"
    );
    assert_eq!(*r.tricks, [12, 0, 0, 0]);
    assert_eq!(r.bids[0], Some("bid 8S".parse().unwrap()));
    assert_eq!(*r.made, [Some(true), None, None, None]);
    let m = g.result().unwrap();
    assert_eq!(m.totals, [18, 0, 18, 0]);
    assert_eq!(m.ranks, [1, 3, 1, 3]);
    assert_eq!(m.winners(), [seat(0), seat(2)]);
}

/// Also the example hand of docs/notation.md.
#[test]
fn l5_announced_feats_doubles_redoubles_and_a_doubled_game() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[
            (0, "announce four-kings"),
            (1, "double four-kings"),
            (2, "redouble four-kings"),
            (3, "double game"),
            (0, "announce dix-last"),
            (1, "double dix-last"),
            (2, "announce all-three"),
            (3, "announce slam"),
            (0, "double slam"),
        ],
    );
    passes(&mut g, &[1, 2, 3, 0]);
    play(&mut g, &A_SWEEP);
    // Team 0: four kings announced, redoubled: 4 × 4 = 16; four aces
    // silent 3; dix last announced, doubled: 8 × 2 = 16; all three
    // announced 4; hand 7 × 2 (game doubled) = 14. Total 53.
    // Team 1: its slam announced, doubled, failed: −12 × 2 = −24.
    let b = g.breakdown().unwrap();
    assert_eq!((b.hand, b.game), (7, 2));
    assert_eq!(b.feats, [[16, 3, 16, 4, 0, 0], [0, 0, 0, 0, 0, -24]]);
    assert_eq!(points(&g), [53, -24]);
}

#[test]
fn l5_announced_feats_that_fail_cost_their_value() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[
            (0, "announce four-aces"),
            (1, "announce four-kings"),
            (2, "pass"),
            // Both teams may announce the same feat.
            (3, "announce four-aces"),
            (0, "pass"),
            (1, "announce dix-last"),
            (2, "pass"),
            (3, "announce all-three"),
            (0, "pass"),
            (1, "announce joker-catch"),
        ],
    );
    passes(&mut g, &[2, 3, 0, 1]);
    play(&mut g, &A_SWEEP);
    // Team 0: four aces announced 6; four kings 2, dix last 4 and all
    // three 2 silent (the other team's announcements do not stop them);
    // hand 7. Total 21. Team 1: −4 − 6 − 8 − 4 − 20 = −42.
    let b = g.breakdown().unwrap();
    assert_eq!(b.feats, [[2, 6, 4, 2, 0, 0], [-4, -6, -8, -4, -20, 0]]);
    assert_eq!(points(&g), [21, -42]);
}

#[test]
fn l7_an_announced_slam_made_scores_base_twelve_and_the_game_redoubled() {
    let mut g = a_whole_8s();
    acts(
        &mut g,
        &[(0, "pass"), (1, "double game"), (2, "announce slam")],
    );
    assert!(matches!(
        g.check(seat(3), "double slam".parse().unwrap()),
        Err(IllegalReason::Rule { id: "L5", .. })
    ));
    acts(&mut g, &[(3, "pass"), (0, "redouble game")]);
    passes(&mut g, &[1, 2, 3, 0]);
    play(&mut g, &A_SWEEP);
    // Hand (12 + 0) × 4 = 48; silent feats 2 + 3 + 4 + 2 = 11.
    let b = g.breakdown().unwrap();
    assert_eq!((b.hand, b.game), (12, 4));
    assert_eq!(b.feats[0][Feat::Slam as usize], 0);
    assert_eq!(points(&g), [59, 0]);
}

#[test]
fn l7_a_silent_slam_on_a_high_contract_a_made_slam_bid_keeps_its_base() {
    // L7 follows the source's prose (a slam neither bid nor
    // announced raises the base); the source's formula would give 12 here.
    let mut g = dealt(A, A_KITTY);
    declare(&mut g, "bid 12S");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    let tricks: Vec<String> = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"]
        .iter()
        .map(|r| format!("{r}S {r}H {r}D {r}C"))
        .collect();
    play(
        &mut g,
        &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // Base 11 + difficulty 5 (without, high) = 16; four kings 2, four aces 3.
    let b = g.breakdown().unwrap();
    assert_eq!(b.hand, 16);
    assert_eq!(points(&g), [21, 0]);
}

/// B: deal A with seat 0's 3S and seat 1's 3H swapped.
pub(super) const B: [&str; 4] = [
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3S",
    A[2],
    A[3],
];

#[test]
fn l7_an_announced_slam_that_fails_scores_minus_24_plus_difficulty() {
    let mut g = dealt(B, A_KITTY);
    declare(&mut g, "bid 10S");
    act(&mut g, 0, "half");
    discard(&mut g, 0, "4S 5S 6S");
    acts(
        &mut g,
        &[(0, "announce slam"), (1, "pass"), (2, "announce dix-last")],
    );
    passes(&mut g, &[3, 0, 1, 2]);
    play(
        &mut g,
        &[
            "3H AH 3D 3C",
            "3S 4D 4C BJ",
            "LJ KH AD AC",
            "AS QH KD KC",
            "KS JH QD QC",
            "QS TH JD JC",
            "JS 9H TD TC",
            "TS 8H 9D 9C",
            "9S 7H 8D 8C",
            "8S 6H 7D 7C",
            "7S 5H 6D 6C",
            "2S 4H 5D 5C",
        ],
    );
    assert_eq!(g.team_tricks(), [11, 1]);
    // Eleven tricks make 10S, but the announced slam is a bid of twelve:
    // set, −(24 + 2) (half, middle). Dix Last then counts the contract as
    // set: won with the dix, it fails (−8). Silent four kings 2 (the aces
    // are split) and all three 2 (BJ, LJ, 2S). −26 − 8 + 2 + 2 = −30.
    let b = g.breakdown().unwrap();
    assert!(!b.made);
    assert_eq!(b.hand, -26);
    assert_eq!(b.feats[0], [2, 0, -8, 2, 0, 0]);
    assert_eq!(points(&g), [-30, 0]);
    assert_eq!(g.hand_results()[0].made[0], Some(false));
}

/// C: seat 0 holds the dix and loses it to the ace at the last trick.
pub(super) const C: [&str; 4] = [
    "BJ LJ KS QS JS 4S 3S 2S AD KD QD JD",
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
    "TD 9D 8D 7D 6D 5D 4D 3D 9C 8C 7C 6C",
    "AS TS 9S 8S 7S 6S 5S AC KC QC JC TC",
];
pub(super) const C_KITTY: &str = "2H 2D 5C 4C 3C 2C";

#[test]
fn l5_dix_last_lost_scores_for_the_dix_players_opponents() {
    let mut g = dealt(C, C_KITTY);
    declare(&mut g, "bid 8S");
    act(&mut g, 0, "without");
    acts(
        &mut g,
        &[
            (0, "announce dix-last"),
            (1, "pass"),
            (2, "pass"),
            (3, "announce dix-last"),
            (0, "double dix-last"),
        ],
    );
    passes(&mut g, &[1, 2, 3, 0]);
    play(
        &mut g,
        &[
            "BJ 3H 3D 5S",
            "LJ 4H 4D 6S",
            "KS 5H 5D 7S",
            "QS 6H 6D 8S",
            "JS 7H 7D 9S",
            "AD 8H 8D AC",
            "KD 9H 9D KC",
            "QD TH TD QC",
            "JD JH 9C JC",
            "4S QH 8C TS",
            "TC 3S KH 7C",
            "2S AH 6C AS",
        ],
    );
    assert_eq!(g.team_tricks(), [10, 2]);
    // 8S made: +1. The dix played to the last trick and lost: the dix
    // player's opponents make Dix Last whatever the contract; team 1's
    // announcement, doubled, scores 8 × 2 = 16, team 0's fails (−8).
    // Team 0 also makes four kings silently (+2); the aces are split.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!(b.hand, 1);
    assert_eq!(b.feats, [[2, 0, -8, 0, 0, 0], [0, 0, 16, 0, 0, 0]]);
    assert_eq!(points(&g), [-5, 16]);
}

/// D: seat 0 holds BJ and seat 1 LJ as its only trump.
pub(super) const D: [&str; 4] = [
    "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
    "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
];

#[test]
fn l5_joker_catch_announced_and_doubled() {
    let mut g = dealt(D, "3S 2S 3H 2H 2D 2C");
    declare(&mut g, "bid 9S");
    act(&mut g, 0, "without");
    acts(
        &mut g,
        &[(0, "announce joker-catch"), (1, "double joker-catch")],
    );
    passes(&mut g, &[2, 3, 0, 1]);
    let mut tricks = vec!["BJ LJ AD AC".to_string()];
    let (s, h, d, c) = ("AKQJT98765", "AKQJT98765", "KQJT987654", "KQJT987654");
    for i in 0..10 {
        tricks.push(
            [s, h, d, c]
                .iter()
                .zip(["S", "H", "D", "C"])
                .map(|(r, suit)| format!("{}{suit}", &r[i..i + 1]))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    tricks.push("4S 4H 3D 3C".to_string());
    play(
        &mut g,
        &tricks.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // 9S with a silent slam: min(3 + 6, 12) = 9. Joker catch announced,
    // doubled: 20 × 2 = 40; four kings 2, four aces 3. 54.
    let b = g.breakdown().unwrap();
    assert_eq!(b.hand, 9);
    assert_eq!(b.feats[0], [2, 3, 0, 0, 40, 0]);
    assert_eq!(points(&g), [54, 0]);
}

#[test]
fn l5_joker_catch_fails_when_the_partner_plays_the_little_joker() {
    let hands = [
        D[0],
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
        "LJ AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        D[3],
    ];
    let mut g = dealt(hands, "3S 2S 2H 3D 2D 2C");
    declare(&mut g, "bid 9S");
    act(&mut g, 0, "without");
    act(&mut g, 0, "announce joker-catch");
    passes(&mut g, &[1, 2, 3, 0]);
    // Seat 2 must follow the big joker with its only trump, the little one.
    act(&mut g, 0, "BJ");
    act(&mut g, 1, "AH");
    assert_eq!(
        g.legal_actions(seat(2)).as_slice(),
        [Action::Play(Card::LITTLE_JOKER)]
    );
    play(
        &mut g,
        &[
            "LJ AC",
            "AS KH AD KC",
            "KS QH KD QC",
            "QS JH QD JC",
            "JS TH JD TC",
            "TS 9H TD 9C",
            "9S 8H 9D 8C",
            "8S 7H 8D 7C",
            "7S 6H 7D 6C",
            "6S 5H 6D 5C",
            "5S 4H 5D 4C",
            "4S 3H 4D 3C",
        ],
    );
    // Hand 9 (silent slam); joker catch announced and failed −20; four
    // kings 2, four aces 3: −6.
    let b = g.breakdown().unwrap();
    assert_eq!(b.feats[0], [2, 3, 0, 0, -20, 0]);
    assert_eq!(points(&g), [-6, 0]);
}
