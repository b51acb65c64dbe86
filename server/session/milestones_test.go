package session

import (
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store/storetest"
)

// TestTheMilestonesOfAGameAreToldInTheOrderTheyHappened: a game begun,
// each new depth, and its end with its cause, score and rank, each once
// the turn is durable; nothing for an ordinary turn.
func TestTheMilestonesOfAGameAreToldInTheOrderTheyHappened(t *testing.T) {
	st := storetest.TempBolt(t)
	var heard []Milestone
	s := New(Config{Fingerprint: fp, Saves: st, Scores: st, Profiles: st, Quarantine: st,
		NewSeed: func() uint64 { return 3 }, Now: func() time.Time { return now },
		Milestone: func(m Milestone) { heard = append(heard, m) }})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if len(heard) != 1 || heard[0].Kind != MilestoneStart || heard[0].Depth != 1 {
		t.Fatalf("after Start: %+v, want one start on depth 1", heard)
	}
	s.Do(game.Wait())
	if len(heard) != 1 {
		t.Fatalf("a wait made milestones: %+v", heard[1:])
	}
	end, err := playToTheEnd(t, s)
	if err != nil {
		t.Fatal(err)
	}
	last := heard[len(heard)-1]
	wantKind := MilestoneDeath
	if end.Won {
		wantKind = MilestoneVictory
	}
	if last.Kind != wantKind || last.Cause != s.Game().Cause() || last.Score != s.Game().Score() || last.Rank != 1 || last.Turn != s.Game().Turn() {
		t.Errorf("the last milestone %+v, want the %s with the game's cause, score and rank 1", last, wantKind)
	}
	depth := 1
	for _, m := range heard[1 : len(heard)-1] {
		switch m.Kind {
		case MilestoneDepth:
			if m.Depth != depth+1 {
				t.Errorf("depth milestone %d after depth %d", m.Depth, depth)
			}
			depth = m.Depth
		case MilestoneKill, MilestoneLevel:
		default:
			t.Errorf("a %s milestone mid-game: %+v", m.Kind, m)
		}
	}
	if depth != s.Game().Depth() {
		t.Errorf("depth milestones reached %d, the game ended on %d", depth, s.Game().Depth())
	}
}
