package session

// This file: the milestones of the game in progress (a game begun, a new
// depth, a level-up, a notable kill, its end), told to Config.Milestone
// once the turn that made them is shown, for the server's events feed
// (server/events).

import "github.com/grotto-game/grotto/game"

// The kinds of Milestone; server/events uses the same words.
const (
	MilestoneStart   = "start"   // a game was begun
	MilestoneDepth   = "depth"   // the player reached a new depth
	MilestoneLevel   = "level"   // the player chose a level-up (Level)
	MilestoneKill    = "kill"    // the player killed a notable monster (Monster)
	MilestoneDeath   = "death"   // the player died (Cause, Score, Rank)
	MilestoneVictory = "victory" // the player left the grotto alive (Score, Rank)
	MilestoneDaily   = "daily"   // a daily ended, won or not: its result (instead of death or victory)
)

// Milestone is a moment of the game in progress worth telling others.
type Milestone struct {
	Kind    string // one of the Milestone* kinds
	Daily   string // the daily's date (game.Game.Daily), "" for an ordinary game
	Depth   int    // the player's depth after the turn
	Turn    int    // the game's turn count after the turn
	Level   int    // the character level reached (MilestoneLevel)
	Monster string // the notable monster's name, as messages say it (MilestoneKill)
	Cause   string // how the game ended (death, daily)
	Won     bool   // the game ended in victory (victory, daily)
	Score   int    // points of a game that ended
	Rank    int    // its rank on the score table, 0 for none
	Cheated bool   // cheats were used in the game (game.Game.Cheated): never on the score table
}

// milestones returns what the turn that gave res made of note, in the
// order it happened: kills, then a level-up, a new depth or the end.
func (s *Session) milestones(res game.Result) []Milestone {
	if s.cfg.Milestone == nil {
		return nil
	}
	g := s.game
	at := Milestone{Daily: g.Daily(), Depth: g.Depth(), Turn: g.Turn(), Cheated: g.Cheated()}
	var out []Milestone
	for _, id := range res.Slain {
		if m, ok := s.cfg.Data.Monster(id); ok && m.Notable {
			k := at
			k.Kind, k.Monster = MilestoneKill, m.Name
			out = append(out, k)
		}
	}
	if res.Level > 0 {
		k := at
		k.Kind, k.Level = MilestoneLevel, res.Level
		out = append(out, k)
	}
	switch {
	case res.Died || res.Won:
		k := at
		k.Kind, k.Cause, k.Won, k.Score, k.Rank = MilestoneDeath, g.Cause(), res.Won, g.Score(), s.rank
		switch {
		case g.Daily() != "":
			k.Kind = MilestoneDaily
		case res.Won:
			k.Kind = MilestoneVictory
		}
		out = append(out, k)
	case res.Descended:
		k := at
		k.Kind = MilestoneDepth
		out = append(out, k)
	}
	return out
}

// tell hands ms to Config.Milestone, or holds them while the turn that
// made them waits for storage (it is not shown yet): the wait's end tells
// them.
func (s *Session) tell(ms []Milestone) {
	if s.waiting {
		s.held = append(s.held, ms...)
		return
	}
	ms, s.held = append(s.held, ms...), nil
	for _, m := range ms {
		s.cfg.Milestone(m)
	}
}
