//! Scenario tests: L7: the sections.

use super::*;

// ----- L7: the sections -----

/// L: seat 0 holds six top spades and six low hearts; seat 1 the high hearts.
pub(super) const L: [&str; 4] = [
    "AS KS QS JS TS 9S 2H 3H 4H 5H 6H 7H",
    "AH KH QH JH TH 9H 8H 2C 3C 4C 5C 6C",
    A[2],
    "8S 7S 6S 5S 4S 3S 2S AC KC QC JC TC",
];

#[test]
fn l7_a_low_contract_set() {
    let mut g = dealt(L, "9C 8C 7C BJ LJ 2D");
    declare(&mut g, "bid 9NT");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    play(
        &mut g,
        &[
            "AS 2C AD 2S",
            "KS 3C 3D 3S",
            "QS 4C 4D 4S",
            "JS 5C 5D 5S",
            "TS 6C 6D 6S",
            "9S 8H 7D 7S",
            "2H AH KD 8S",
            "KH 8D AC 3H",
            "QH 9D KC 4H",
            "JH TD QC 5H",
            "TH JD JC 6H",
            "9H QD TC 7H",
        ],
    );
    assert_eq!(g.team_tricks(), [6, 6]);
    // Set: −(4 + 0); no feat (kings and aces are split).
    let b = g.breakdown().unwrap();
    assert!(!b.made);
    assert_eq!(b.feats, [[0; 6]; 2]);
    assert_eq!(points(&g), [-4, 0]);
}

/// M: seat 0 holds eleven hearts and the two of spades.
pub(super) const M: [&str; 4] = [
    "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2S",
    "3S AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
    "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3H",
];

#[test]
fn l7_a_middle_contract_made() {
    let mut g = dealt(M, "2H 3D 2D 2C LJ BJ");
    declare(&mut g, "bid 11H");
    act(&mut g, 0, "without");
    passes(&mut g, &[0, 1, 2, 3]);
    play(
        &mut g,
        &[
            "AH 4D 3C 3H",
            "KH 5D 4C 4S",
            "QH 6D 5C 5S",
            "JH 7D 6C 6S",
            "TH 8D 7C 7S",
            "9H 9D 8C 8S",
            "8H TD 9C 9S",
            "7H JD TC TS",
            "6H QD JC JS",
            "5H KD QC QS",
            "4H AD KC KS",
            "2S 3S AC AS",
        ],
    );
    assert_eq!(g.team_tricks(), [11, 1]);
    // Made: 8 + 3 (without, middle) = 11; four kings 2 silent.
    let b = g.breakdown().unwrap();
    assert!(b.made);
    assert_eq!(b.hand, 11);
    assert_eq!(b.feats[0], [2, 0, 0, 0, 0, 0]);
    assert_eq!(points(&g), [13, 0]);
}

// ----- L8 -----

#[test]
fn l8_a_match_is_hands_deals_and_the_higher_team_total_wins() {
    assert_eq!(game(&[]).config().hands, 16);
    assert_eq!(game(&[]).options().to_string(), "hands=16");
    for bad in ["hands=0", "hands=unset", "hands=x", "target=3"] {
        assert!(
            Illustrated::new(&Options::parse(&[bad]).unwrap()).is_err(),
            "{bad}"
        );
    }
    let mut g = game(&["hands=3"]);
    let seed = Seed::from_u64(9);
    let mut rng = Shuffler::new(seed);
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        kind_first(&mut g, &mut rng);
    }
    let results = g.hand_results();
    assert_eq!(results.len(), 3);
    assert_eq!(
        results.iter().map(|r| r.dealer.index()).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    let m = g.result().unwrap();
    let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(m.totals, [sum(0), sum(1), sum(0), sum(1)]);
    assert_eq!(m.teams, [0, 1, 0, 1]);
    assert_eq!(m.ranks[0], m.ranks[2]);
    assert_eq!(g.observe(seat(1)).players[3].total, sum(1));
}

// ----- the engine contract -----

/// Random play choosing a kind of action first, then an action of it.
pub(super) fn kind_first(g: &mut Illustrated, rng: &mut Shuffler) -> (Seat, Action) {
    let s = g.to_act().first().unwrap();
    let legal = g.legal_actions(s);
    let mut kinds: Vec<ActionKind> = legal.iter().map(|a| a.kind()).collect();
    kinds.dedup();
    let kind = kinds[rng.below(kinds.len() as u32) as usize];
    let of_kind: Vec<Action> = legal.iter().copied().filter(|a| a.kind() == kind).collect();
    let a = of_kind[rng.below(of_kind.len() as u32) as usize];
    g.apply(s, a).unwrap();
    (s, a)
}

#[test]
fn random_play_reaches_every_contract_exchange_and_call() {
    let mut seen: std::collections::BTreeSet<String> = Default::default();
    let mut g = game(&["hands=400"]);
    let seed = Seed::from_u64(4);
    let mut rng = Shuffler::new(seed);
    let log_buffer = g.core.log.as_ptr();
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        let (_, a) = kind_first(&mut g, &mut rng);
        let key = match a {
            Action::Exchange(e) => format!("exchange {}", e.name()),
            Action::Double(Target::Game) | Action::Redouble(Target::Game) => a.to_string(),
            Action::Double(_) => "double feat".into(),
            Action::Redouble(_) => "redouble feat".into(),
            Action::Announce(_) => "announce".into(),
            _ => continue,
        };
        seen.insert(key);
        if let Some(c) = g.contract {
            seen.insert(match c {
                Contract::Numbered {
                    strain: Strain::NoTrump,
                    ..
                } => "notrump".into(),
                Contract::Numbered { .. } => "trump".into(),
                other => other.to_string(),
            });
        }
    }
    assert_eq!(g.core.log.as_ptr(), log_buffer, "the log never reallocated");
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "announce",
            "double feat",
            "double game",
            "exchange against",
            "exchange half",
            "exchange whole",
            "exchange without",
            "notrump",
            "null",
            "open-null",
            "redouble feat",
            "redouble game",
            "trump"
        ]
    );
}

#[test]
fn results_add_up_and_every_hand_has_twelve_tricks() {
    let mut g = game(&["hands=200"]);
    let seed = Seed::from_u64(5);
    let mut rng = Shuffler::new(seed);
    while !g.is_over() {
        if deal_if_needed(&mut g, seed).unwrap() {
            continue;
        }
        kind_first(&mut g, &mut rng);
        if g.status() != Status::Act && !g.hand_results().last().unwrap().misdeal {
            assert_eq!(g.core.tricks.count(), TRICKS);
            let active = g.active();
            assert!(g.core.tricks.done().iter().all(|(t, _)| t.len() == active));
            let b = g.breakdown().unwrap();
            assert_eq!(g.hand_results().last().unwrap().points[0], b.points[0]);
        }
    }
    let results = g.hand_results();
    let sum = |s: usize| results.iter().map(|r| r.points[s]).sum::<i32>();
    assert_eq!(g.result().unwrap().totals, [sum(0), sum(1), sum(0), sum(1)]);
}

#[test]
fn parse_errors_differ_from_illegal_actions() {
    let g = dealt(A, A_KITTY);
    for text in ["give 2C", "bid 5", "declare", "null 3 double"] {
        assert!(g.parse_action(text).is_err(), "{text}");
    }
    assert!(matches!(
        g.resolve(seat(0), "whole"),
        Err(ActionError::Illegal(IllegalAction {
            reason: IllegalReason::WrongPhase,
            ..
        }))
    ));
    assert!(matches!(
        g.resolve(seat(1), "pass"),
        Err(ActionError::Illegal(IllegalAction {
            reason: IllegalReason::NotYourTurn { .. },
            ..
        }))
    ));
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Illustrated.new_game(&Options::new()).unwrap();
    assert_eq!(
        "illustrated".parse::<Variant>().unwrap(),
        Variant::Illustrated
    );
    assert_eq!(g.seats(), 4);
    assert_eq!(g.teams()[..], [0, 1, 0, 1]);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Illustrated);
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
}
