//! Scenario tests: O16, O17 and the engine contract.

use super::*;

#[test]
fn o16_cooperative_legal_bids_total_exactly_the_hand_size() {
    let mut g = game(&["mode=coop", "players=3"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    let everything: Vec<String> = (1..=7)
        .map(|k| format!("bid {k}"))
        .chain((1..=7).map(|r| format!("null {r}")))
        .collect();
    assert_eq!(legal(&g, 1), everything);
    act(&mut g, 1, "bid 5");
    // 5 so far and one seat after this one: at most 2 more.
    let mut expected = vec!["bid 1".to_string(), "bid 2".to_string()];
    expected.extend((1..=7).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 2), expected);
    assert_eq!(
        g.check(seat(2), Action::Bid(3)),
        rule("O16", "the bids must total exactly the hand size")
    );
    act(&mut g, 2, "null 3");
    // The last bid must make exactly 7.
    assert_eq!(legal(&g, 0), ["bid 2"]);
    assert_eq!(g.observe(seat(0)).note("bid-limit"), Some("exactly 7"));
    assert_eq!(g.observe(seat(0)).note("bids-total"), Some("5"));

    // Two nulls first: the last seat must bid all seven.
    let mut g = game(&["mode=coop", "players=3", "doubling=true"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "null 1");
    act(&mut g, 2, "null 7 double");
    assert_eq!(legal(&g, 0), ["bid 7"], "the double was taken");
    // Four players, a bid of all seven first: only nulls follow.
    let mut g = game(&["mode=coop", "players=4"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    act(&mut g, 1, "bid 7");
    for s in [2, 3, 0] {
        let nulls: Vec<String> = (1..=7).map(|r| format!("null {r}")).collect();
        assert_eq!(legal(&g, s), nulls);
        act(&mut g, s, "null 1");
    }
    assert_eq!(g.core.phase, Phase::Play);
}

#[test]
fn o16_cooperative_lead_team_score_and_one_team() {
    for (options, team) in [(&[][..], 1), (&["team-score=lowest"], -1)] {
        let mut g = game(&[&["mode=coop", "players=3", "hands=1"][..], options].concat());
        assert_eq!(g.teams()[..], [0, 0, 0]);
        deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
        act(&mut g, 1, "bid 5");
        act(&mut g, 2, "bid 1");
        act(&mut g, 0, "bid 1");
        assert_eq!(
            g.to_act(),
            SeatSet::single(seat(1)),
            "the highest bid leads"
        );
        play_out(&mut g);
        // Seat 1: 5 − (7 − 5) = 3; seats 2 and 0 missed 1: −1 each.
        let r = &g.hand_results()[0];
        assert_eq!(*r.tricks, [0, 7, 0]);
        assert_eq!(*r.made, [Some(false); 3]);
        assert_eq!(
            *r.points, [team; 3],
            "{options:?}: every seat carries the team's"
        );
        assert_eq!(*r.totals, [team; 3]);
        // O16: each seat's own O6 score is reported beside the team's.
        assert_eq!(*r.seat_points, [-1, 3, -1]);
        assert!(
            r.summary.ends_with(&format!("; team {team:+}")),
            "{}",
            r.summary
        );
        let result = g.result().unwrap();
        assert_eq!(result.ranks, [1, 1, 1]);
        assert_eq!(result.teams, [0, 0, 0]);
        assert_eq!(result.note, "");
        assert_eq!(g.observe(seat(2)).players[1].team, 0);
    }
    // Tied highest bids: the dealer or the first clockwise from it.
    let mut g = game(&["mode=coop", "players=3"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 3");
    act(&mut g, 2, "bid 3");
    act(&mut g, 0, "bid 1");
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    // Every hand is bid first by the dealer's left, whatever the bids before.
    play_out(&mut g);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    assert_eq!(g.dealer(), seat(1));
    assert_eq!(g.to_act(), SeatSet::single(seat(2)));
}

#[test]
fn o17_the_dummy_is_dealt_first_in_each_round_and_leads_every_trick() {
    let mut g = game(&["mode=coop-dummy", "players=2", "hands=1"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    // Rounds of three: the dummy, then seat 1, then seat 0 (the dealer).
    assert_eq!(
        g.dummy.as_slice(),
        cards("8C JC AC TD KD 9H QH 8S JS").to_vec().as_slice()
    );
    assert_eq!(g.hands[1], cards("9C QC 8D JD AD TH KH 9S QS"));
    assert_eq!(g.hands[0], cards("TC KC 9D QD 8H JH AH TS KS"));
    assert_eq!(g.turn_up, Some(card("AS")));
    let o = g.observe(seat(0));
    assert_eq!(
        o.piles,
        [("dummy".to_string(), 9), ("undealt".to_string(), 2)]
    );
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "bidding from the dealer's left"
    );
    act(&mut g, 1, "bid 6");
    // At most 9 in all.
    let mut expected: Vec<String> = (1..=3).map(|k| format!("bid {k}")).collect();
    expected.extend((1..=9).map(|r| format!("null {r}")));
    assert_eq!(legal(&g, 0), expected);
    assert_eq!(
        g.check(seat(0), Action::Bid(4)),
        rule("O17", "the bids may total at most the hand size")
    );
    act(&mut g, 0, "null 2");
    // The dummy leads 8C; seat 1 then seat 0 follow.
    assert_eq!(
        g.core.tricks.current().cards(),
        [(Player::Dummy, card("8C"))]
    );
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(&mut g, 1, "9C");
    act(&mut g, 0, "TC");
    assert_eq!(g.core.tricks.done()[0].1, Player::Seat(seat(0)));
    // The dummy leads again, though seat 0 won.
    assert_eq!(
        g.core.tricks.current().cards(),
        [(Player::Dummy, card("JC"))]
    );
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    play_out(&mut g);
    let pile = cards("8C JC AC TD KD 9H QH 8S JS");
    for (i, (trick, _)) in g.core.tricks.done().iter().enumerate() {
        assert_eq!(trick.cards()[0], (Player::Dummy, g.dummy[i]));
        assert!(pile.contains(g.dummy[i]));
        assert_eq!(trick.len(), 3);
    }
    let r = &g.hand_results()[0];
    let seats_won: u8 = r.tricks.iter().sum();
    assert_eq!(seats_won + g.dummy_won, 9);
}

#[test]
fn o17_dummy_tricks_score_for_nobody_and_beating_the_game() {
    // The dummy holds every trump and AS: it takes all nine tricks.
    for (options, team, verdict) in [
        (&[][..], 2, "beaten"),
        (&["team-score=lowest"], -2, "not beaten"),
    ] {
        let mut g = game(&[&["mode=coop-dummy", "players=2", "hands=1"][..], options].concat());
        deal(
            &mut g,
            &["TD JD QD KD AD 8S 9S TS JS", "8C 9C TC JC QC KC AC 8D 9D"],
            "BJ LJ AH KH QH JH TH 9H AS 8H QS KS",
        );
        act(&mut g, 1, "null 4");
        act(&mut g, 0, "bid 2");
        play_out(&mut g);
        assert_eq!(g.dummy_won, 9);
        assert_eq!(g.observe(seat(0)).note("dummy-tricks"), Some("9"));
        let r = &g.hand_results()[0];
        // Seat 1's null made (+4), seat 0's bid 2 missed (−2).
        assert_eq!(*r.tricks, [0, 0]);
        assert_eq!(*r.made, [Some(false), Some(true)]);
        assert_eq!(*r.points, [team, team]);
        // O17: each seat's own O6 score beside the team's.
        assert_eq!(*r.seat_points, [-2, 4]);
        assert_eq!(
            r.summary,
            format!("trump H; bids bid 2, null 4; tricks 0 0 (dummy 9); team {team:+}")
        );
        let result = g.result().unwrap();
        assert_eq!(result.note, verdict, "{options:?}");
        assert_eq!(result.totals, [team, team]);
    }
}

#[test]
fn options_resolve_round_trip_and_refuse_bad_values() {
    assert_eq!(
        game(&[]).options().to_string(),
        "doubling=false hands=9 lead=winner-leads mode=solitaire players=1 playoff-hands=3 \
         scoring=standard team-score=sum"
    );
    for given in [
        &[][..],
        &["mode=multi"],
        &["mode=multi", "players=2", "lead=fixed", "playoff-hands=0"],
        &[
            "mode=coop",
            "players=7",
            "team-score=lowest",
            "doubling=true",
        ],
        &[
            "mode=coop-dummy",
            "players=6",
            "hands=2",
            "scoring=alternative",
        ],
        &["scoring=edd-allard", "hands=4"],
    ] {
        let g = game(given);
        let again = Oneonta::new(&g.options()).unwrap();
        assert_eq!(again.config(), g.config(), "{given:?}");
    }
    for bad in [
        &["players=2"][..],
        &["mode=multi", "players=1"],
        &["mode=multi", "players=8"],
        &["mode=coop", "players=8"],
        &["mode=coop-dummy", "players=7"],
        &["mode=multi", "scoring=edd-allard"],
        &["mode=coop-dummy", "scoring=edd-allard"],
        &["mode=duo"],
        &["players=x"],
        &["hands=0"],
        &["hands=unset"],
        &["lead=left"],
        &["team-score=mean"],
        &["playoff-hands=101"],
        &["doubling=yes"],
        &["colour=red"],
    ] {
        assert!(
            Oneonta::new(&Options::parse(bad).unwrap()).is_err(),
            "{bad:?}"
        );
    }
}

#[test]
fn illegal_actions_have_precise_reasons() {
    let mut g = solitaire(&[]);
    assert!(g.parse_action("pass").is_err(), "not in the vocabulary");
    assert!(g.parse_action("bid 7D").is_err());
    act(&mut g, 0, "bid 2");
    assert_eq!(
        g.check(seat(0), Action::Bid(3)),
        Err(IllegalReason::WrongPhase)
    );
    assert_eq!(
        g.check(seat(0), Action::Play(card("AS"))),
        Err(IllegalReason::NotInHand(card("AS")))
    );
}

pub(super) fn random_match(options: &[&str], seed: u64) -> Oneonta {
    let mut g = game(options);
    play_random_match(&mut g, seed);
    g
}

#[test]
fn random_matches_end_and_add_up_in_every_mode() {
    let sets: [&[&str]; 8] = [
        &[],
        &["scoring=edd-allard", "doubling=true"],
        &["mode=multi", "players=7", "doubling=true"],
        &["mode=multi", "players=2", "hands=1", "playoff-hands=5"],
        &["mode=coop", "players=7"],
        &[
            "mode=coop",
            "players=2",
            "team-score=lowest",
            "doubling=true",
        ],
        &["mode=coop-dummy", "players=6"],
        &["mode=coop-dummy", "players=2", "doubling=true"],
    ];
    for (n, options) in sets.iter().enumerate() {
        for seed in 0..6 {
            let g = random_match(options, n as u64 * 100 + seed);
            let cfg = g.config();
            let results = g.hand_results();
            let playoff = results
                .iter()
                .filter(|r| r.summary.starts_with("play-off"))
                .count();
            assert_eq!(results.len(), cfg.hands as usize + playoff, "{options:?}");
            for r in results {
                // Without a dummy every trick goes to a seat; with one,
                // the dummy's tricks go to nobody.
                let players = r.bids.iter().filter(|b| b.is_some()).count();
                let size = deck_for(cfg.mode, players).1;
                let tricks: u8 = r.tricks.iter().sum();
                if cfg.mode.has_dummy() {
                    assert!(tricks <= size, "{options:?}");
                } else {
                    assert_eq!(tricks, size, "{options:?}");
                }
                if cfg.mode.cooperative() {
                    assert!(r.points.iter().all(|&p| p == r.points[0]));
                }
                if cfg.mode == Mode::Coop {
                    let total: u8 = r.bids.iter().map(|&b| bid_value(b)).sum();
                    assert_eq!(total, deck_for(cfg.mode, cfg.players as usize).1);
                }
            }
            let result = g.result().unwrap();
            assert_eq!(result.totals, results.last().unwrap().totals.as_slice());
        }
    }
}

#[test]
fn registered_as_a_variant() {
    let mut g = Variant::Oneonta.new_game(&Options::new()).unwrap();
    assert_eq!("oneonta".parse::<Variant>().unwrap(), Variant::Oneonta);
    assert_eq!(Variant::Oneonta.name(), "oneonta");
    assert_eq!(g.seats(), 1);
    assert_eq!(g.deck().len(), 22);
    deal_if_needed(&mut g, Seed::from_u64(3)).unwrap();
    assert_eq!(g.observe(seat(0)).game, Variant::Oneonta);
    assert_eq!(g.legal_actions(seat(0)).len(), 18);
}
