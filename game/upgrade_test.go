package game

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A game begun under older rules and resumed by this build is played on
// under these rules (Game.Rules names both). A build of the older rules
// must then not play it on (its turns would follow other rules than the
// ones already played, and its history would replay under neither): the
// save says the newest rules that played it, and such a build refuses it
// as a save of another version (ErrSaveVersion: kept, the player told),
// never as damage.
func TestASaveResumedUnderNewerRulesIsRefusedByABuildOfTheOlderRulesAsAnotherVersion(t *testing.T) {
	old := New(5, testData)
	old.s.Rules = RulesVersion - 1 // begun by the build before
	b, err := old.Encode()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode(b, testData)
	if err != nil {
		t.Fatalf("this build refuses a game of the rules before: %v", err)
	}
	if !g.ResumedUnderNewerRules() {
		t.Error("a game of the rules before, resumed here, does not say its next save must be a snapshot")
	}
	if _, err := g.Apply(Command{Action: ActWait}); err != nil {
		t.Fatal(err)
	}
	b, err = g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Played":`) {
		t.Fatalf("the save of a game resumed under newer rules does not say so:\n%.300s", b[10:])
	}
	// This build, playing the rules after the save's: the same save as
	// a build of the older rules reads the save this build wrote.
	played := g.s
	played.Played = RulesVersion + 1
	g.s = played
	newer, _ := g.Encode()
	if _, err := Decode(newer, testData); !errors.Is(err, ErrSaveVersion) || errors.Is(err, ErrCorruptSave) ||
		!strings.Contains(err.Error(), "rules version") {
		t.Errorf("a game last played under newer rules: Decode err = %v, want ErrSaveVersion naming the rules version", err)
	}

	// A game begun under these rules says nothing more: its bytes are
	// as before the field.
	now := New(5, testData)
	if b, _ := now.Encode(); bytes.Contains(b, []byte(`"Played"`)) {
		t.Error("a game of these rules is saved with a Played field")
	}
	if now.ResumedUnderNewerRules() {
		t.Error("a new game says it was resumed under newer rules")
	}
	b, _ = now.Encode()
	if g, err := Decode(b, testData); err != nil || g.ResumedUnderNewerRules() {
		t.Errorf("a game of these rules, saved and resumed: err %v, resumed under newer rules %v", err, err == nil && g.ResumedUnderNewerRules())
	}
}
