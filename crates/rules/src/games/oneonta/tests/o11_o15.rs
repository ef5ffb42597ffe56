//! Scenario tests: O11 to O15: multiplayer decks, deal, bidding order, lead, play-offs.

use super::*;

#[test]
fn o11_o17_deck_sizes_for_every_player_count_and_mode() {
    // (mode, players, deck size, cards per seat, lowest rank)
    let table = [
        (Mode::Solitaire, 1, 22, 9, Rank::Ten),
        (Mode::Multi, 2, 30, 9, Rank::Eight),
        (Mode::Multi, 3, 22, 7, Rank::Ten),
        (Mode::Multi, 4, 30, 7, Rank::Eight),
        (Mode::Multi, 5, 38, 7, Rank::Six),
        (Mode::Multi, 6, 46, 7, Rank::Four),
        (Mode::Multi, 7, 54, 7, Rank::Two),
        (Mode::Coop, 2, 30, 9, Rank::Eight),
        (Mode::Coop, 3, 22, 7, Rank::Ten),
        (Mode::Coop, 4, 30, 7, Rank::Eight),
        (Mode::Coop, 5, 38, 7, Rank::Six),
        (Mode::Coop, 6, 46, 7, Rank::Four),
        (Mode::Coop, 7, 54, 7, Rank::Two),
        (Mode::CoopDummy, 2, 30, 9, Rank::Eight),
        (Mode::CoopDummy, 3, 30, 7, Rank::Eight),
        (Mode::CoopDummy, 4, 38, 7, Rank::Six),
        (Mode::CoopDummy, 5, 46, 7, Rank::Four),
        (Mode::CoopDummy, 6, 54, 7, Rank::Two),
    ];
    for (i, &(mode, players, size, per_seat, lowest)) in table.iter().enumerate() {
        let label = format!("{} {players}", mode.name());
        let (deck, h) = deck_for(mode, players);
        assert_eq!(deck.len(), size, "{label}");
        assert_eq!(h, per_seat, "{label}");
        assert_eq!(deck, decks::reduced(lowest), "{label}");
        assert!(deck.contains(Card::BIG_JOKER) && deck.contains(Card::LITTLE_JOKER));
        // The deck suffices: every hand (the dummy's too) and a turn-up,
        // hands × h + 1 cards, so hands × h < size.
        let hands = players + usize::from(mode.has_dummy());
        assert!(
            hands * usize::from(h) < size,
            "{label}: the deck is too small"
        );
        // A seeded deal gives each hand h cards and leaves the rest unseen.
        let mut g = game(&[
            &format!("mode={}", mode.name()),
            &format!("players={players}"),
        ]);
        assert_eq!(g.deck(), deck, "{label}");
        assert_eq!(g.seats(), players);
        deal_if_needed(&mut g, Seed::from_u64(i as u64)).unwrap();
        for s in 0..players {
            assert_eq!(g.hands[s].len(), h as usize, "{label}");
        }
        let o = g.observe(seat(0));
        let undealt = size - hands * h as usize - 1;
        assert_eq!(o.piles.last().unwrap().1 as usize, undealt, "{label}");
        if mode.has_dummy() {
            assert_eq!(g.dummy.len(), h as usize, "{label}");
            assert_eq!(o.piles[0], ("dummy".to_string(), h), "{label}");
        }
    }
    // The exact sizes the text's table would have given are too small
    // where the rules add the 8s (O11: 4 players; O17: 3 players).
    assert!(decks::reduced(Rank::Nine).len() < 4 * 7 + 1);
    assert!(decks::reduced(Rank::Nine).len() < (3 + 1) * 7 + 1);
}

#[test]
fn o12_multiplayer_deal_goes_clockwise_from_the_dealers_left_then_turns_up() {
    let mut g = game(&["mode=multi", "players=4"]);
    let order = g.deck().to_vec();
    // 8C 9C TC JC QC KC AC 8D ... AS LJ BJ: seat 1 gets the 1st, 5th, ... card.
    g.deal(&order).unwrap();
    assert_eq!(g.hands[1], cards("8C QC 9D KD TH AH JS"));
    assert_eq!(g.hands[2], cards("9C KC TD AD JH 8S QS"));
    assert_eq!(g.hands[3], cards("TC AC JD 8H QH 9S KS"));
    assert_eq!(g.hands[0], cards("JC 8D QD 9H KH TS AS"));
    // The 29th card is turned (here LJ: BJ alone is trump, O3); one is left.
    assert_eq!(g.turn_up, Some(Card::LITTLE_JOKER));
    let o = g.observe(seat(2));
    assert_eq!(o.table[0].card, Card::LITTLE_JOKER);
    assert_eq!(o.piles, [("undealt".to_string(), 1)]);
    assert_eq!(o.trump, Trump::Jokers);
    assert_eq!(o.players.iter().map(|p| p.held).collect::<Vec<_>>(), [7; 4]);
    for (s, v) in o.players.iter().enumerate() {
        assert_eq!(v.known.is_empty(), s != 2);
    }
    // The next hand is dealt by seat 1, starting with seat 2.
    for s in [1, 2, 3, 0] {
        act(&mut g, s, "bid 1");
    }
    play_out(&mut g);
    assert_eq!(g.dealer(), seat(1));
    g.deal(&order).unwrap();
    assert_eq!(g.hands[2], cards("8C QC 9D KD TH AH JS"));
}

/// A 4-player multi game with hand 1 bid as given and played out.
pub(super) fn four_after_hand_one(bids: [&str; 4]) -> Oneonta {
    let mut g = game(&["mode=multi", "players=4"]);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    assert_eq!(
        g.to_act(),
        SeatSet::single(seat(1)),
        "O13: dealer's left first"
    );
    for (s, bid) in [1, 2, 3, 0].into_iter().zip(bids) {
        act(&mut g, s, bid);
    }
    play_out(&mut g);
    assert_eq!(g.dealer(), seat(1));
    g
}

/// Who bids first in the next hand when the totals are `totals`.
pub(super) fn first_bidder_with(g: &Oneonta, totals: [i32; 4]) -> usize {
    let mut g = g.clone();
    g.core.set_totals(&totals);
    let order = g.deck().to_vec();
    g.deal(&order).unwrap();
    assert_eq!(
        g.observe(seat(0)).note("first-bidder"),
        Some(g.core.turn.to_string().as_str())
    );
    g.to_act().first().unwrap().index()
}

#[test]
fn o13_first_bidder_highest_positive_bid_then_total_then_dealer() {
    // Seats 2 and 0 bid 5, the highest positive bid; seat 1 deals next.
    let g = four_after_hand_one(["bid 3", "bid 5", "null 2", "bid 5"]);
    assert_eq!(first_bidder_with(&g, [4, 0, 10, 0]), 2, "higher total");
    assert_eq!(first_bidder_with(&g, [10, 0, 4, 0]), 0, "higher total");
    // Equal totals: the first of them clockwise from the dealer (1).
    assert_eq!(first_bidder_with(&g, [4, 9, 4, 9]), 2);
    // One highest positive bid decides alone, whatever the totals.
    let g = four_after_hand_one(["bid 3", "bid 6", "null 7", "bid 5"]);
    assert_eq!(first_bidder_with(&g, [50, 0, 0, 50]), 2);
    // No positive bid: every seat ties; totals, then the dealer itself.
    let g = four_after_hand_one(["null 1", "null 2", "null 3", "null 4"]);
    assert_eq!(first_bidder_with(&g, [0, 3, 3, 1]), 1, "the dealer");
    assert_eq!(first_bidder_with(&g, [3, 0, 0, 3]), 3);
    assert_eq!(first_bidder_with(&g, [0, 0, 0, 0]), 1);
    // Bids are public, in every seat's observation.
    let o = g.observe(seat(3));
    assert_eq!(o.players[1].bid, Some(Action::Null(1)));
    assert_eq!(o.players[0].bid, Some(Action::Null(4)));
}

#[test]
fn o14_the_highest_positive_bid_leads_then_total_then_dealer() {
    let leader = |bids: [&str; 4], totals: [i32; 4]| {
        let mut g = game(&["mode=multi", "players=4"]);
        g.core.set_totals(&totals);
        let order = g.deck().to_vec();
        g.deal(&order).unwrap();
        for (s, bid) in [1, 2, 3, 0].into_iter().zip(bids) {
            act(&mut g, s, bid);
        }
        assert_eq!(g.core.phase, Phase::Play);
        g.to_act().first().unwrap().index()
    };
    let bids = ["bid 3", "bid 5", "null 2", "bid 5"];
    assert_eq!(leader(bids, [0; 4]), 0, "tie 2/0: the dealer");
    assert_eq!(leader(bids, [0, 0, 6, 0]), 2, "tie 2/0: the higher total");
    assert_eq!(
        leader(["bid 3", "bid 2", "bid 7", "null 5"], [9, 9, 0, 9]),
        3
    );
    let nulls = ["null 1", "null 2", "null 3", "null 4"];
    assert_eq!(leader(nulls, [0; 4]), 0, "all null: the dealer");
    assert_eq!(
        leader(nulls, [0, 1, 2, 2]),
        2,
        "all null: total, then clockwise"
    );
}

#[test]
fn o14_the_winner_leads_or_with_lead_fixed_the_first_leader() {
    for (options, next) in [(&["lead=winner-leads"][..], 1), (&["lead=fixed"], 0)] {
        let mut g = game(&[&["mode=multi", "players=2"][..], options].concat());
        deal(&mut g, &[WEAK2, STRONG2], REST2);
        act(&mut g, 1, "null 9");
        act(&mut g, 0, "bid 2");
        assert_eq!(g.to_act(), SeatSet::single(seat(0)));
        act(&mut g, 0, "8C");
        act(&mut g, 1, "9H");
        assert_eq!(
            g.core.tricks.done()[0].1,
            Player::Seat(seat(1)),
            "a trump wins"
        );
        assert_eq!(g.to_act(), SeatSet::single(seat(next)), "{options:?}");
        assert_eq!(
            g.observe(seat(0)).note("lead"),
            Some(options[0].split('=').nth(1).unwrap())
        );
    }
}

#[test]
fn o15_match_length_is_the_cards_per_seat() {
    for (players, hands) in [(2, 9), (3, 7), (4, 7), (7, 7)] {
        let g = game(&["mode=multi", &format!("players={players}")]);
        assert_eq!(g.config().hands, hands);
    }
    assert_eq!(game(&["mode=multi"]).config().players, 4);
    assert_eq!(game(&["mode=coop"]).config().hands, 9);
    assert_eq!(game(&["mode=coop-dummy"]).config().players, 3);
}

/// Three players, one regular hand: seat 1 takes all seven tricks; seats
/// 1 and 2 tie on 7, seat 0 has −1.
pub(super) fn tied_after_one_hand(options: &[&str]) -> Oneonta {
    let mut g = game(&[&["mode=multi", "players=3", "hands=1"][..], options].concat());
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 7");
    act(&mut g, 2, "null 7");
    act(&mut g, 0, "bid 1");
    play_out(&mut g);
    assert_eq!(g.core.totals()[..3], [-1, 7, 7]);
    g
}

/// A play-off hand between seats 1 and 2 in which seat 1 takes all nine.
pub(super) fn playoff_hand(g: &mut Oneonta, bids: [&str; 2]) {
    assert_eq!(g.status(), Status::Deal);
    assert_eq!(
        g.deck(),
        decks::reduced(Rank::Eight),
        "O15: the 2-player deck"
    );
    deal(g, &["", STRONG2, WEAK2], REST2);
    let o = g.observe(seat(0));
    assert!(!o.players[0].active);
    assert!(o.players[1].active && o.players[2].active);
    assert_eq!(o.players[0].held, 0);
    assert_eq!(o.note("playoff"), Some("true"));
    assert_eq!(g.hands[1].len(), 9);
    // O13 among the tied seats: seat 1 had the highest positive bid.
    assert_eq!(g.to_act(), SeatSet::single(seat(1)));
    act(g, 1, bids[0]);
    act(g, 2, bids[1]);
    while g.core.phase == Phase::Play {
        assert!(
            !g.to_act().contains(seat(0)),
            "a seat sitting out never acts"
        );
        assert!(g.legal_actions(seat(0)).is_empty());
        let s = g.to_act().first().unwrap();
        let a = g.legal_actions(s)[0];
        g.apply(s, a).unwrap();
    }
    let r = g.hand_results().last().unwrap();
    assert_eq!(r.bids[0], None);
    assert_eq!(r.points[0], 0);
    assert_eq!(*r.tricks, [0, 9, 0]);
    assert!(r.summary.starts_with("play-off: "), "{}", r.summary);
}

#[test]
fn o15_tied_leaders_play_off_and_still_tied_share_the_win() {
    let mut g = tied_after_one_hand(&["playoff-hands=1"]);
    // The play-off is dealt by the first tied seat left of the last dealer (0).
    assert_eq!(g.dealer(), seat(1));
    assert_eq!(g.active, cards_seats(&[1, 2]));
    playoff_hand(&mut g, ["bid 9", "null 9"]);
    // 16 and 16, and no more play-off hands: a shared win.
    let result = g.result().expect("over");
    assert_eq!(result.totals, [-1, 16, 16]);
    assert_eq!(result.ranks, [3, 1, 1]);
    assert_eq!(result.winners(), [seat(1), seat(2)]);
    assert_eq!(result.hands, 2);
}

pub(super) fn cards_seats(seats: &[usize]) -> SeatSet {
    seats.iter().map(|&s| seat(s)).collect()
}

#[test]
fn o15_the_play_off_goes_on_until_one_leads_with_rotating_deals() {
    let mut g = tied_after_one_hand(&[]);
    playoff_hand(&mut g, ["bid 9", "null 9"]);
    assert_eq!(g.core.totals()[..3], [-1, 16, 16]);
    // Still tied: another play-off hand, dealt by the next tied seat.
    assert_eq!(g.dealer(), seat(2));
    assert_eq!(g.status(), Status::Deal);
    playoff_hand(&mut g, ["bid 9", "null 1"]);
    let result = g.result().expect("over: seat 1 leads");
    assert_eq!(result.totals, [-1, 25, 17]);
    assert_eq!(result.ranks, [3, 1, 2]);
    assert_eq!(result.hands, 3);
    assert_eq!(g.observe(seat(0)).note("playoff-hands-played"), Some("2"));
    // Without a tie there is no play-off.
    let mut g = game(&["mode=multi", "players=3", "hands=1"]);
    deal(&mut g, &[SPADES3, STRONG3, CLUBS3], "TH");
    act(&mut g, 1, "bid 7");
    act(&mut g, 2, "null 6");
    act(&mut g, 0, "bid 1");
    play_out(&mut g);
    assert_eq!(g.result().unwrap().ranks, [3, 1, 2]);
}
