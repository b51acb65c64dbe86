package replay_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/game/world"
	"github.com/grotto-game/grotto/internal/race"
)

// turnCap stops a game that does not end (it is then not a finished game).
const turnCap = 5000

// playToEnd plays seed with the diver policy, one command in five a random
// one (a step, a use, a drop or a throw at a random tile, so that every
// kind of command goes through the history), and, every resumeEvery
// turns, saves and resumes the game as a session does (Encode, Decode):
// the history must survive that. It returns the game at its end, or nil if
// it reached turnCap.
func playToEnd(t testing.TB, seed uint64, data *content.Tables) *game.Game {
	const resumeEvery = 150
	rng := rand.New(rand.NewPCG(seed, 15))
	diver := bot.Diver("diver", bot.AllItems())
	g := game.New(seed, data)
	v := bot.NewView(g)
	for !g.Over() && g.Turn() < turnCap {
		c := diver.Decide(v)
		if rng.IntN(5) == 0 {
			switch rng.IntN(4) {
			case 0:
				c = game.Move(rng.IntN(3)-1, rng.IntN(3)-1)
			case 1:
				c = game.Use(rng.IntN(3), world.Pos{X: rng.IntN(80), Y: rng.IntN(43)})
			case 2:
				c = game.Drop(rng.IntN(3))
			case 3:
				c = game.Throw(rng.IntN(3), world.Pos{X: rng.IntN(80), Y: rng.IntN(43)})
			}
		}
		if _, err := g.Apply(c); err != nil {
			c = game.Wait()
			if g.Growth().Pending {
				c = game.LevelUp(game.Stat(1 + rng.IntN(3)))
			}
			if _, err := g.Apply(c); err != nil {
				t.Fatalf("seed %d: %+v refused: %v", seed, c, err)
			}
		}
		if g.HistoryLen()%resumeEvery == 0 && !g.Over() {
			blob, err := g.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if g, err = game.Decode(blob, data); err != nil {
				t.Fatalf("seed %d: resume: %v", seed, err)
			}
			v = bot.NewView(g)
		} else {
			v.Refresh()
		}
	}
	if !g.Over() {
		return nil
	}
	return g
}

// record returns g's finished-game record, as the session keeps it.
func record(g *game.Game, data *content.Tables) replay.Record {
	hist, _ := g.HistoryBlob()
	return replay.Record{Seed: g.Seed(), Rules: game.Rules(data), History: hist, Hash: g.StateHash(), Points: g.Score(), Cause: g.Cause()}
}

// TestEveryFinishedGameReplaysToItsRecordedEnd is the test that a finished game is its seed and history: 200
// seeds of random play to the end; replaying each from its seed and
// history gives the recorded final state hash, score and cause. It also
// logs what a history costs per 1,000 turns.
func TestEveryFinishedGameReplaysToItsRecordedEnd(t *testing.T) {
	data := content.Default()
	seeds := 200
	if testing.Short() || race.Enabled {
		// The game is one goroutine: the race detector has nothing to
		// find in 200 seeds that 30 do not show. All 200 run in the plain
		// pass of the README's command (go test ./game/...), 15 times
		// faster than under -race.
		seeds = 30
	}
	var turns, bytes, commands, finished int
	for seed := range uint64(seeds) {
		g := playToEnd(t, seed, data)
		if g == nil {
			continue
		}
		finished++
		rec := record(g, data)
		if _, full := g.HistoryBlob(); !full {
			t.Fatalf("seed %d: a new game's history is not complete", seed)
		}
		turns, bytes, commands = turns+g.Turn(), bytes+len(rec.History), commands+g.HistoryLen()
		got, err := replay.Verify(rec, data)
		if err != nil {
			t.Errorf("seed %d (%d turns, %s): %v", seed, g.Turn(), g.Cause(), err)
			continue
		}
		if got.StateHash() != rec.Hash || got.Score() != rec.Points || got.Cause() != rec.Cause {
			t.Errorf("seed %d: replayed to %s, %d, %q; recorded %s, %d, %q", seed, got.StateHash(), got.Score(), got.Cause(), rec.Hash, rec.Points, rec.Cause)
		}
	}
	if finished < seeds*9/10 {
		t.Errorf("only %d of %d games ended before %d turns", finished, seeds, turnCap)
	}
	t.Logf("%d finished games, %d turns, %d commands: history %d bytes compressed, %.0f bytes per 1,000 turns",
		finished, turns, commands, bytes, float64(bytes)*1000/float64(turns))
}

// BenchmarkHistoryBytes reports the compressed history's size per 1,000
// turns over 50 finished games (docs/performance.md).
func BenchmarkHistoryBytes(b *testing.B) {
	data := content.Default()
	for range b.N {
		var turns, n int
		for seed := range uint64(50) {
			if g := playToEnd(b, seed, data); g != nil {
				h, _ := g.HistoryBlob()
				turns, n = turns+g.Turn(), n+len(h)
			}
		}
		b.ReportMetric(float64(n)*1000/float64(turns), "bytes/1000turns")
	}
}

// finishedGame returns a short finished game and its record.
func finishedGame(t *testing.T, data *content.Tables) (*game.Game, replay.Record) {
	t.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		if g := playToEnd(t, seed, data); g != nil && g.HistoryLen() > 20 {
			return g, record(g, data)
		}
	}
	t.Fatal("no game ended")
	return nil, replay.Record{}
}

// TestADamagedOrForeignRecordIsRefusedNotPlayed: a record from other rules,
// with damaged or truncated history, or with another recorded end, is
// refused with an error that says which; never replayed as another game.
func TestADamagedOrForeignRecordIsRefusedNotPlayed(t *testing.T) {
	data := content.Default()
	_, rec := finishedGame(t, data)
	flip := func(r replay.Record) replay.Record {
		h := append([]byte(nil), r.History...)
		h[len(h)/2] ^= 0x10
		r.History = h
		return r
	}
	cases := []struct {
		name string
		rec  func(replay.Record) replay.Record
		want error
		says string
	}{
		{"a record from other rules", func(r replay.Record) replay.Record { r.Rules = "0.000000000000"; return r }, replay.ErrOtherRules, "other rules"},
		{"a history with a flipped bit", flip, replay.ErrDamaged, "damaged"},
		{"a truncated history", func(r replay.Record) replay.Record { r.History = r.History[:len(r.History)*2/3]; return r }, replay.ErrDamaged, "damaged"},
		{"a record kept without its history", func(r replay.Record) replay.Record { r.History = nil; return r }, replay.ErrNoHistory, "without its full history"},
		{"a history of no commands", func(r replay.Record) replay.Record { r.History = emptyHistory(); return r }, replay.ErrDamaged, "damaged"},
		{"another final hash", func(r replay.Record) replay.Record { r.Hash = strings.Repeat("0", 64); return r }, replay.ErrMismatch, "hash"},
		{"another score", func(r replay.Record) replay.Record { r.Points++; return r }, replay.ErrMismatch, "score"},
		{"another seed", func(r replay.Record) replay.Record { r.Seed++; return r }, replay.ErrMismatch, "does not match"},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			g, err := replay.Verify(c.rec(rec), data)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) || g != nil {
				t.Errorf("Verify: %v (game %v), want an error wrapping %v that says %q", err, g != nil, c.want, c.says)
			}
		})
	}
}

// emptyHistory is the history of a game that took no command.
func emptyHistory() []byte {
	h, _ := game.New(1, content.Default()).HistoryBlob()
	return h
}

// TestAReplaySteps: a viewer steps turn by turn, jumps to the next depth,
// seeks back and to the end, and sees the recorded game at each point.
func TestAReplaySteps(t *testing.T) {
	data := content.Default()
	g, rec := finishedGame(t, data)
	r, err := replay.New(rec, data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Pos() != 0 || r.Game().Turn() != 0 || r.Len() != g.HistoryLen() {
		t.Fatalf("a new replay at %d/%d, turn %d; want 0/%d, turn 0", r.Pos(), r.Len(), r.Game().Turn(), g.HistoryLen())
	}
	if err := r.Step(); err != nil || r.Pos() != 1 {
		t.Fatalf("step: %v, at %d", err, r.Pos())
	}
	if err := r.NextDepth(); err != nil || (r.Game().Depth() != 2 && !r.Done()) {
		t.Fatalf("next depth: %v, at depth %d", err, r.Game().Depth())
	}
	mid := r.Pos()
	hash := r.Game().StateHash()
	if err := r.Seek(1); err != nil || r.Pos() != 1 {
		t.Fatalf("seek back: %v, at %d", err, r.Pos())
	}
	if err := r.Seek(mid); err != nil || r.Game().StateHash() != hash {
		t.Fatalf("seek forward again: %v, same state %v", err, r.Game().StateHash() == hash)
	}
	if err := r.End(); err != nil || !r.Done() || r.Game().StateHash() != rec.Hash {
		t.Fatalf("end: %v, done %v", err, r.Done())
	}
}

// TestTheDumpTellsTheGame: the dump names the player, score, cause, the
// character, the pack, the kills, the last messages and the map.
func TestTheDumpTellsTheGame(t *testing.T) {
	data := content.Default()
	g, _ := finishedGame(t, data)
	d := replay.Dump(g, data, "Ann")
	t.Logf("a dump of %d bytes (%d turns)", len(d), g.Turn())
	for _, want := range []string{"Ann: ", g.Cause(), "Character level", "Pack:", "Kills by monster:", "Last messages:",
		g.Message(g.LogLen() - 1).Text, "as the player knew it", "@"} {
		if !strings.Contains(d, want) {
			t.Errorf("the dump lacks %q:\n%s", want, d)
		}
	}
	for _, r := range d {
		if r > 0x7e && r != '\'' {
			t.Errorf("the dump has non-ASCII %q", r)
			break
		}
	}
}

// TestAMismatchSaysWhatDiffersInOneSentence: the text players and hosts
// read (replay, dump, the web's replay page, quarantine) is one plain
// sentence naming the turn and what differs, recorded against found; it
// never prints a Go struct (found by a tester).
func TestAMismatchSaysWhatDiffersInOneSentence(t *testing.T) {
	data := content.Default()
	g, rec := finishedGame(t, data)
	n := strings.Repeat("0", 12)
	cases := []struct {
		name string
		rec  func(replay.Record) replay.Record
		says []string
	}{
		{"another final hash", func(r replay.Record) replay.Record { r.Hash = strings.Repeat("0", 64); return r },
			[]string{"hash", n, rec.Hash[:12]}},
		{"another score", func(r replay.Record) replay.Record { r.Points += 7; return r },
			[]string{"score", itoa(rec.Points), itoa(rec.Points + 7)}},
		{"another cause", func(r replay.Record) replay.Record { r.Cause = "killed by boredom on level 9"; return r },
			[]string{g.Cause(), "killed by boredom on level 9"}},
		{"another seed", func(r replay.Record) replay.Record { r.Seed++; return r }, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := replay.Verify(c.rec(rec), data)
			if !errors.Is(err, replay.ErrMismatch) {
				t.Fatalf("Verify: %v, want a mismatch", err)
			}
			msg := err.Error()
			t.Logf("%s: %s", c.name, msg)
			if strings.ContainsAny(msg, "{}\n") || strings.Contains(msg, "Action:") {
				t.Errorf("not one plain sentence: %q", msg)
			}
			if strings.Count(msg, ": ") > 1 {
				t.Errorf("a chain of causes, not one sentence: %q", msg)
			}
			if !strings.Contains(msg, "turn ") {
				t.Errorf("does not say at which turn: %q", msg)
			}
			var m *replay.Mismatch
			if !errors.As(err, &m) || (c.name == "another seed" && !strings.Contains(m.Detail, "refused")) {
				t.Errorf("the log's detail is lost: %#v", m)
			}
			for _, w := range c.says {
				if !strings.Contains(msg, w) {
					t.Errorf("does not say %q: %q", w, msg)
				}
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTheDumpCountsInTheSingular: one kill is "1 kill", not "1 kills"
// (tester), and one turn "1 turn".
func TestTheDumpCountsInTheSingular(t *testing.T) {
	data := content.Default()
	g := game.New(247, data)
	diver := bot.Diver("diver", bot.AllItems())
	v := bot.NewView(g)
	for i := 0; i < 5000 && !g.Over() && g.Kills() < 1; i++ {
		if _, err := g.Apply(diver.Decide(v)); err != nil {
			c := game.Wait()
			if g.Growth().Pending {
				c = game.LevelUp(game.Stat(1))
			}
			if _, err := g.Apply(c); err != nil {
				t.Fatal(err)
			}
		}
		v.Refresh()
	}
	if g.Kills() != 1 {
		t.Fatalf("the diver made %d kills, not 1", g.Kills())
	}
	if d := replay.Dump(g, data, "Ann"); !strings.Contains(d, " turns, 1 kill.") {
		t.Errorf("one kill is not counted as one:\n%s", d)
	}
	one := game.New(247, data)
	one.Apply(game.Wait())
	if d := replay.Dump(one, data, "Ann"); !strings.Contains(d, ", 1 turn, 0 kills.") {
		t.Errorf("one turn is not counted as one:\n%s", d)
	}
}

// TestTheDumpNamesThePackAsThePlayerSawItAndWhatItWas: the breaker read
// "d) health potion" in the dump of a game whose player only ever saw a
// "sparkling blue potion". The pack is listed in letter order, a stack on
// one line, each item by the name the player knew and, where that hid the
// kind, what it was (NetHack identifies the pack at the end too).
func TestTheDumpNamesThePackAsThePlayerSawItAndWhatItWas(t *testing.T) {
	data := content.Default()
	for seed := uint64(1); seed < 80; seed++ {
		g := playToEnd(t, seed, data)
		if g == nil {
			continue
		}
		var unknown *game.Item
		for _, it := range g.Inventory() {
			if g.Unidentified(it.Kind) {
				unknown = &it
				break
			}
		}
		if unknown == nil {
			continue
		}
		d := replay.Dump(g, data, "Ann")
		want := fmt.Sprintf("%c) %s", unknown.Letter, g.KindName(unknown.Kind, 1))
		if !strings.Contains(d, want) || !strings.Contains(d, "(unidentified: ") || !strings.Contains(d, string(unknown.Kind)+")") {
			t.Fatalf("seed %d: the dump lacks %q and what it was:\n%s", seed, want, d)
		}
		pack := d[strings.Index(d, "Pack:"):strings.Index(d, "Kills by monster:")]
		var letters []byte
		for _, l := range strings.Split(pack, "\n") {
			if len(l) > 3 && l[3] == ')' {
				letters = append(letters, l[2])
			}
		}
		if !slices.IsSorted(letters) || len(slices.Compact(slices.Clone(letters))) != len(letters) {
			t.Errorf("seed %d: the pack's letters %q are not each once, in order:\n%s", seed, letters, pack)
		}
		return
	}
	t.Fatal("no ended game had an unknown item in its pack")
}
