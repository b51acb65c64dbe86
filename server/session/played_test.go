package session

import (
	"reflect"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store/storetest"
)

// TestTheServerHearsOfEveryTurnPlayedAndOfTheEnd: Config.Played (the
// server's turn and finished-game counters) hears each turn the game
// applied, the last with its end, and never an impossible command.
func TestTheServerHearsOfEveryTurnPlayedAndOfTheEnd(t *testing.T) {
	st := storetest.TempBolt(t)
	var heard []game.Result
	s := New(Config{Fingerprint: fp, Saves: st, Scores: st, Profiles: st, Quarantine: st,
		NewSeed: func() uint64 { return 3 }, Now: func() time.Time { return now },
		Played: func(r game.Result) { heard = append(heard, r) }})
	s.Start()
	s.Do(game.Descend()) // not on the stairs: impossible, no turn
	if len(heard) != 0 {
		t.Fatalf("heard %d turns after an impossible command", len(heard))
	}
	end, _ := playToTheEnd(t, s)
	if len(heard) != s.Game().Turn() {
		t.Errorf("heard %d turns, the game played %d", len(heard), s.Game().Turn())
	}
	if last := heard[len(heard)-1]; !reflect.DeepEqual(last, end) {
		t.Errorf("the last turn heard %+v, the game ended %+v", last, end)
	}
}
