//! The bids of the auction (L2) and the round of calls (L4): which are
//! legal now, and why not.

use super::*;

impl Illustrated {
    /// L2: why `contract` may not be bid now, if it may not.
    pub(super) fn check_bid(&self, contract: Contract) -> Result<(), IllegalReason> {
        match self.standing {
            Some((_, standing)) if contract.base() <= standing.base() => {
                Err(IllegalReason::NotHigher(standing.action()))
            }
            _ => Ok(()),
        }
    }

    /// L4: why `seat` may not make the call `action` now, if it may not.
    pub(super) fn check_call(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        let contract = self.contract();
        let t = team(seat);
        let decl = team(self.declarer);
        let rule = |text| IllegalReason::Rule { id: "L4", text };
        match action {
            Action::Pass => Ok(()),
            Action::Announce(feat) => {
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if !contract.has_feat(feat) {
                    Err(IllegalReason::Rule {
                        id: "L5",
                        text: "that feat does not exist in this contract",
                    })
                } else if self.calls[t][feat as usize] != 0 {
                    Err(rule("a team announces each feat at most once"))
                } else {
                    Ok(())
                }
            }
            Action::Double(Target::Game) => {
                if t == decl {
                    Err(rule("only the declarer's opponents may double the game"))
                } else if self.game_mult != 1 {
                    Err(rule("the game is already doubled"))
                } else {
                    Ok(())
                }
            }
            Action::Double(Target::Feat(feat)) => {
                let mult = self.calls[1 - t][feat as usize];
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if mult == 0 {
                    Err(rule("a double needs a feat the other team announced"))
                } else if feat == Feat::Slam && 1 - t == decl {
                    Err(IllegalReason::Rule {
                        id: "L5",
                        text: "a declaring team's slam cannot be doubled as a feat (double the game)",
                    })
                } else if mult != 1 {
                    Err(rule("that announcement is already doubled"))
                } else {
                    Ok(())
                }
            }
            Action::Redouble(Target::Game) => {
                if t != decl {
                    Err(rule("only the declaring team may redouble the game"))
                } else if self.game_mult != 2 {
                    Err(rule(
                        "a redouble needs a double of the game not yet redoubled",
                    ))
                } else {
                    Ok(())
                }
            }
            Action::Redouble(Target::Feat(feat)) => {
                if contract.is_null() {
                    Err(NULL_CALLS_ONLY)
                } else if self.calls[t][feat as usize] != 2 {
                    Err(rule(
                        "a redouble needs a double of this team's announcement not yet redoubled",
                    ))
                } else {
                    Ok(())
                }
            }
            _ => Err(IllegalReason::WrongPhase),
        }
    }
}
