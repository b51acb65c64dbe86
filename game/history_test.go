package game

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// everyKindOfCommand holds one command of each shape the history codec
// writes: compact steps, bare actions and commands with fields.
var everyKindOfCommand = []Command{
	Move(-1, -1), Move(1, 0), Move(0, 1), Move(0, 0), Move(3, -7), Wait(), Descend(), PickUp(),
	Use(2, world.Pos{X: 79, Y: 42}), Drop(25), Throw(0, world.Pos{X: -1, Y: 1 << 20}), LevelUp(StatDefense),
	{Action: ActCheat, Cheat: CheatCreate, Kind: FireballScroll}, {Action: ActCheat, Cheat: CheatGod},
}

func TestEveryCommandRoundTripsThroughTheHistory(t *testing.T) {
	var raw []byte
	for _, c := range everyKindOfCommand {
		raw = appendCommand(raw, c)
	}
	got, err := DecodeHistory(encodeHistory(raw, len(everyKindOfCommand)))
	want := make([]Command, len(everyKindOfCommand))
	for i, c := range everyKindOfCommand {
		want[i] = c.Normalized()
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("decoded %+v (%v)\nwant    %+v", got, err, want)
	}
}

// TestAResumedGameKeepsItsHistory: the history survives a save and a
// resume, and a refused command does not join it.
func TestAResumedGameKeepsItsHistory(t *testing.T) {
	g := New(3, testData)
	cmds := randomCommands(3, 300)
	var accepted []Command
	for i, c := range cmds {
		if _, err := g.Apply(c); err == nil {
			accepted = append(accepted, c.Normalized())
		}
		if i == 150 {
			blob, err := g.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if g, err = Decode(blob, testData); err != nil {
				t.Fatal(err)
			}
		}
		if g.Over() {
			break
		}
	}
	got, full := g.History()
	if !full || !slices.Equal(got, accepted) {
		t.Errorf("history of %d commands (complete %v), want the %d accepted, complete", len(got), full, len(accepted))
	}
}

// TestASaveFromBeforeHistoriesHasAPartialOne: a save written before
// histories were kept decodes with an incomplete history, which then
// grows from there and stays marked incomplete through saves.
func TestASaveFromBeforeHistoriesHasAPartialOne(t *testing.T) {
	blob, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if h, full := g.History(); full || len(h) != 0 {
		t.Errorf("an old save's history: %d commands, complete %v; want none, incomplete", len(h), full)
	}
	g.Apply(Wait())
	blob, _ = g.Encode()
	if g, err = Decode(blob, testData); err != nil {
		t.Fatal(err)
	}
	if h, full := g.History(); full || len(h) != 1 {
		t.Errorf("after a wait and a save: %d commands, complete %v; want 1, incomplete", len(h), full)
	}
}

// TestADamagedHistoryInASaveIsACorruptSave: a save whose history does not
// decode is refused as corrupt, as any damaged save.
func TestADamagedHistoryInASaveIsACorruptSave(t *testing.T) {
	g := New(1, testData)
	g.Apply(Wait())
	g.hist.raw = append(g.hist.raw, 0x7f) // an unknown action
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(blob, testData); !errors.Is(err, ErrCorruptSave) {
		t.Errorf("decoding a save with a damaged history: %v, want ErrCorruptSave", err)
	}
}

func FuzzDecodeHistory(f *testing.F) {
	var raw []byte
	for _, c := range everyKindOfCommand {
		raw = appendCommand(raw, c)
	}
	f.Add(encodeHistory(raw, len(everyKindOfCommand)))
	f.Add(encodeHistory(nil, 0))
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		cmds, err := DecodeHistory(b)
		if err != nil {
			if !errors.Is(err, ErrCorruptHistory) {
				t.Fatalf("error %v does not wrap ErrCorruptHistory", err)
			}
			return
		}
		var again []byte
		for _, c := range cmds {
			again = appendCommand(again, c)
		}
		if back, err := DecodeHistory(encodeHistory(again, len(cmds))); err != nil || !slices.Equal(back, cmds) {
			t.Fatalf("decoded commands do not round-trip: %v", err)
		}
	})
}

// Rolled combat, items to learn, hunger and special rooms changed the
// rules (RulesVersion 2). A game saved before them and
// resumed now plays on under the new rules, so its history from turn 0
// replays under neither: its Rules names both versions, which a replay
// refuses in words as recorded under other rules. A game begun now has
// the rules of now.
func TestAGameBegunUnderOlderRulesSaysSo(t *testing.T) {
	blob, err := os.ReadFile(fixturePath) // the original checked-in save: no "Rules" key
	if err != nil {
		t.Fatal(err)
	}
	old, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if got, now := old.Rules(), Rules(testData); got == now || !strings.HasPrefix(got, "1+") {
		t.Errorf("a game of rules 1 resumed under %s says it is played under %q", now, got)
	}
	g := New(1, testData)
	if got := g.Rules(); got != Rules(testData) {
		t.Errorf("a new game says %q, want %q", got, Rules(testData))
	}
	blob, err = g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if back.Rules() != Rules(testData) {
		t.Errorf("a new game saved and loaded says %q", back.Rules())
	}
}

// A game begun before a change to the data tables and finished after it
// would not replay under either set, yet its save keeps only the rules'
// version: the replay would call it damaged and set it aside. So every
// change to the embedded data must come with a new RulesVersion (the docs
// helper found the gap): this pin fails until both move together.
func TestTheDataTablesChangeOnlyWithTheRulesVersion(t *testing.T) {
	pinned := map[int]string{4: "4.987ace65be46"}
	want, ok := pinned[RulesVersion]
	if got := Rules(content.Default()); !ok || got != want {
		t.Errorf("the rules are %q, pinned %q for version %d: a change to game/content/data changes every game's rules, so bump RulesVersion (history.go) and pin the new value here", got, want, RulesVersion)
	}
}
